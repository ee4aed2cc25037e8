import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../../platform/http/schema-helpers.js';
import { ExpiresIn } from '../../streams/model.js';

const expiresIn = Type.Optional(ExpiresIn('3600', 3600));

export const CurrentThumbnailQuery = Type.Object({ expires_in: expiresIn }, { additionalProperties: false });
export type CurrentThumbnailQuery = Static<typeof CurrentThumbnailQuery>;

export const RecordingThumbnailQuery = Type.Object(
  {
    time: Type.Optional(
      Type.Number({
        minimum: 0,
        default: 0,
        description: 'Second of the recording, 0 to its `duration_seconds` (default 0), kept to a tenth of a second',
        examples: [754.2],
      }),
    ),
    expires_in: expiresIn,
  },
  { additionalProperties: false },
);
export type RecordingThumbnailQuery = Static<typeof RecordingThumbnailQuery>;

export const Thumbnail = Type.Object(
  {
    object: Type.Literal('thumbnail'),
    stream_id: Type.String(),
    url: Type.String({
      description:
        'A signed JPEG at most 360 lines high. The current still: `{cdn_url}/<signature_segment>/_thumb/<stream_id>.jpg` ' +
        '(cached 10 s; it changes while the stream is live). A recording still: ' +
        '`{cdn_url}/<signature_segment>/_still/<stream_id>/<time_seconds>.jpg` (never changes; cached a day, immutable). ' +
        'With `cdn.token_form` `query` the signature is in `?svc=` instead.',
    }),
    captured_at: Nullable({
      ...Timestamp,
      description: 'When the current still was taken; null for a recording still (see `time_seconds`)',
    }),
    time_seconds: Nullable(
      Type.Number({ description: "The recording still's second, to a tenth; null for the current still" }),
    ),
    expires_at: Timestamp,
  },
  {
    examples: [
      {
        object: 'thumbnail',
        stream_id: 'str_8f3k2m9q7x1c4v6b0n5z',
        url: 'https://cdn.example.com/4tqO0b1Jc2WzYl8y3Yd1aw.1764342000/_still/str_8f3k2m9q7x1c4v6b0n5z/754.2.jpg',
        captured_at: null,
        time_seconds: 754.2,
        expires_at: '2026-11-28T15:00:00.000Z',
      },
    ],
  },
);
export type Thumbnail = Static<typeof Thumbnail>;
