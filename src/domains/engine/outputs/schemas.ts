import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';
import { StreamId } from '../../streams/model.js';

export const OUTPUT_ID = /^out_[a-z0-9]{20}$/;
export const OutputId = Type.String({ pattern: OUTPUT_ID.source, examples: ['out_6b0n5z8f3k2m9q7x1c4v'] });

/** Outputs per stream (docs/decisions.md, "Restreaming: outputs API"); counted under the stream's row lock. */
export const MAX_OUTPUTS = 5;
export const MAX_URL_LENGTH = 2048;
export const MAX_KEY_LENGTH = 512;

export const OUTPUT_STATUSES = ['idle', 'connecting', 'active', 'errored'] as const;
export type OutputStatus = (typeof OUTPUT_STATUSES)[number];

const Url = Type.String({
  minLength: 1,
  maxLength: MAX_URL_LENGTH,
  description:
    '`rtmp://host[:port]/app`, `rtmps://host[:port]/app` or `srt://host:port` without the key; a host on the public ' +
    'internet (unless the operator allows private ones), no user name or password, no query or fragment',
  examples: ['rtmp://a.rtmp.youtube.com/live2'],
});
/** Printable ASCII without spaces: what RTMP paths and SRT stream ids carry without escaping. */
const StreamKeyInput = Type.String({
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  pattern: '^[\\x21-\\x7e]+$',
  description:
    'Secret: 1-512 printable ASCII characters, no spaces. Required for rtmp and rtmps (appended to the URL as the ' +
    'stream name); optional for srt (sent as the SRT `streamid`). Never shown again',
  examples: ['abcd-efgh-ijkl-mnop-qrst'],
});
const Name = Nullable(
  Type.String({ maxLength: 100, description: 'Label, up to 100 characters', examples: ['YouTube'] }),
);
const Enabled = Type.Boolean({ description: 'False: not pushed (default true)' });

export const StreamOutput = Type.Object(
  {
    object: Type.Literal('stream_output'),
    id: OutputId,
    stream_id: StreamId,
    name: Name,
    url: Type.String({ description: 'The target without the key', examples: ['rtmp://a.rtmp.youtube.com/live2'] }),
    stream_key: Nullable(
      Type.String({
        description:
          'Masked: `••••` and the last 4 characters (only `••••` for keys shorter than 12); null for an srt output without one',
        examples: ['••••qrst'],
      }),
    ),
    enabled: Enabled,
    status: StringEnum(OUTPUT_STATUSES, {
      description:
        'Read-only. `idle`: not pushing (stream not live, disabled, or not started yet); `connecting`; `active`: ' +
        'pushing; `errored`: the last attempt failed (`last_error`), retried with backoff',
    }),
    last_error: Nullable(Type.String({ description: 'Read-only: why the last attempt failed' })),
    connected_at: Nullable(Timestamp),
    bytes_sent: Type.Integer({ minimum: 0, description: 'Read-only: bytes pushed to this output so far' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'StreamOutput',
    additionalProperties: false,
    description: 'A restreaming target: while the stream is live, the source is pushed there as sent',
  },
);
export type StreamOutput = Static<typeof StreamOutput>;

export const StreamOutputList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref(StreamOutput)), has_more: Type.Boolean() },
  { $id: 'StreamOutputList' },
);
export type StreamOutputList = Static<typeof StreamOutputList>;

export const CreateOutputBody = Type.Object(
  {
    url: Url,
    stream_key: Type.Optional(StreamKeyInput),
    name: Type.Optional(Name),
    enabled: Type.Optional(Enabled),
  },
  {
    additionalProperties: false,
    examples: [{ url: 'rtmp://a.rtmp.youtube.com/live2', stream_key: 'abcd-efgh-ijkl-mnop-qrst', name: 'YouTube' }],
  },
);
export type CreateOutputBody = Static<typeof CreateOutputBody>;

export const PatchOutputBody = Type.Object(
  {
    url: Type.Optional(Url),
    stream_key: Type.Optional(Nullable(StreamKeyInput)),
    name: Type.Optional(Name),
    enabled: Type.Optional(Enabled),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: false }] },
);
export type PatchOutputBody = Static<typeof PatchOutputBody>;

export const CreateOutputHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

/** Any text: ids that name no output of the account's stream are `404 not_found`. */
export const OutputParams = Type.Object(
  {
    id: Type.String({ description: 'Stream id (`str_...`)' }),
    output_id: Type.String({ description: 'Output id (`out_...`)' }),
  },
  { additionalProperties: false },
);

export const OUTPUT_SCHEMAS = [StreamOutput, StreamOutputList];
