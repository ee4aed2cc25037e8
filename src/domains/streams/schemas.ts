import { Type, type Static, type TObject } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../platform/http/schema-helpers.js';
import { DEFAULT_LIVE } from '../../config/config.js';
import { Cost } from '../ledger/billing/schemas.js';
import {
  ChatSettings,
  ChatSettingsInput,
  DEFAULT_CHAT,
  DEFAULT_PLAYER,
  END_REASONS,
  Ingest,
  LATENCY_MODES,
  PlayerSettings,
  PlayerSettingsInput,
  PROFILES,
  RECORDING_STATUSES,
  STREAM_STATUSES,
  StreamId,
  CHANNEL_ID,
  secondsBehind,
  segmentSeconds,
} from './model.js';

/** `latency_mode` in the API's words, from what the modes mean (`LATENCY`); standard's pieces as shipped. */
const lowSeconds = segmentSeconds('low', DEFAULT_LIVE);
const latencyModeDescription = [
  `\`standard\` (default): ${segmentSeconds('standard', DEFAULT_LIVE)}-second pieces, about ${secondsBehind('standard')} s behind the publisher in the hosted player.`,
  `\`low\`: ${lowSeconds}-second pieces and a player tuned closer to the live edge, about ${secondsBehind('low')} s behind, for publishers that send a keyframe every ${lowSeconds === 1 ? 'second' : `${lowSeconds} seconds`} (segments are cut on the publisher's keyframes).`,
  'Changeable while the stream is pending',
].join(' ');
const latencyModeField = (options: Record<string, unknown> = {}) =>
  StringEnum(LATENCY_MODES, { ...options, description: latencyModeDescription });

export const Name = Nullable(Type.String({ maxLength: 100, examples: ['Friday town hall'] }));
export const Metadata = Nullable(
  Type.Object(
    {},
    {
      additionalProperties: true,
      'x-max-bytes': 2048,
      description: 'Client JSON, up to 2 KB; never shown to viewers',
      examples: [{ event_id: 'evt-42' }],
    },
  ),
);
const REPLAY_DESCRIPTION =
  'Offer the recording as a replay once it is ready: the embed read and the hosted player play it as HLS VOD (seekable) until the recording is deleted; members-only rules apply. Needs `record`; served by the origin (from its disk or its object storage), its edges, and a CDN in front in the query token form. False: nothing after the end';
export const CreateStreamBody = Type.Object(
  {
    name: Type.Optional(Name),
    channel_id: Type.Optional(
      Nullable(
        Type.String({
          pattern: CHANNEL_ID.source,
          description:
            "Create the stream in this channel of the account (`404 not_found` otherwise): it starts with the channel's `player` and `chat` settings, and this body's own `player` and `chat` fields are laid over them. Fixed at creation",
          examples: ['chn_4v6b0n5z8f3k2m9q7x1c'],
        }),
      ),
    ),
    profile: Type.Optional(StringEnum(PROFILES, { default: 'abr_basic' })),
    max_resolution: Type.Optional(
      Type.Unsafe<480 | 720 | 1080>({ type: 'integer', enum: [480, 720, 1080], default: 720 }),
    ),
    record: Type.Optional(Type.Boolean({ default: true })),
    recording_retention_days: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 3650 }))),
    metadata: Type.Optional(Metadata),
    player: Type.Optional(PlayerSettingsInput),
    chat: Type.Optional(ChatSettingsInput),
    replay: Type.Optional(Type.Boolean({ default: false, description: REPLAY_DESCRIPTION })),
    latency_mode: Type.Optional(latencyModeField({ default: 'standard' })),
  },
  {
    additionalProperties: false,
    'x-optional-body': true,
    examples: [
      { name: 'Friday town hall', profile: 'abr_basic', max_resolution: 720, metadata: { event_id: 'evt-42' } },
      { name: 'Live auction', latency_mode: 'low' },
    ],
  },
);
export type CreateStreamBody = Static<typeof CreateStreamBody>;

export const PatchStreamBody = Type.Object(
  {
    name: Type.Optional(Name),
    metadata: Type.Optional(Metadata),
    player: Type.Optional(PlayerSettingsInput),
    chat: Type.Optional(ChatSettingsInput),
    latency_mode: Type.Optional(latencyModeField()),
    replay: Type.Optional(Type.Boolean({ description: `${REPLAY_DESCRIPTION}. Any status` })),
  },
  // Required and not empty: a patch that changes nothing is a client mistake.
  {
    additionalProperties: false,
    minProperties: 1,
    examples: [{ name: 'Town hall (rescheduled)', metadata: null }, { latency_mode: 'low' }],
  },
);
export type PatchStreamBody = Static<typeof PatchStreamBody>;

export const ListStreamsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(StreamId),
    status: Type.Optional(StringEnum(STREAM_STATUSES)),
    channel_id: Type.Optional(
      Type.String({
        pattern: CHANNEL_ID.source,
        description: 'Only the streams of this channel of the account (`404 not_found` if it names none)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ListStreamsQuery = Static<typeof ListStreamsQuery>;

export const CreateHeaders = Type.Object({
  'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
});

const Recording = Nullable(
  Type.Object({
    status: StringEnum(RECORDING_STATUSES),
    bytes: Nullable(Type.Integer()),
    duration_seconds: Nullable(Type.Number()),
    retention_days: Nullable(Type.Integer()),
    ready_at: Nullable(Timestamp),
    delete_at: Nullable(Timestamp),
    delete_reason: Nullable(Type.String({ enum: ['retention', 'zero_balance'] })),
    deleted_at: Nullable(Timestamp),
  }),
);

export const Viewers = Type.Object({
  now: Nullable(
    Type.Object({
      watching: Type.Integer(),
      waiting: Type.Integer(),
      buffering_pct: Type.Number(),
      measured_at: Timestamp,
      exact: Type.Boolean(),
    }),
  ),
  peak: Nullable(Type.Integer()),
  peak_at: Nullable(Timestamp),
  watch_minutes: Nullable(Type.Integer()),
  source: Nullable(Type.String({ enum: ['cdn', 'player'] })),
  cdn_counted_until: Nullable(Timestamp),
});
export type Viewers = Static<typeof Viewers>;

const streamFields = {
  id: StreamId,
  object: Type.Literal('stream'),
  name: Name,
  channel_id: Nullable(
    Type.String({
      description: 'The channel the stream was created in; null for none, or once the channel is deleted',
      examples: ['chn_4v6b0n5z8f3k2m9q7x1c'],
    }),
  ),
  status: StringEnum(STREAM_STATUSES),
  profile: StringEnum(PROFILES),
  latency_mode: latencyModeField(),
  record: Type.Boolean(),
  replay: Type.Boolean({ description: REPLAY_DESCRIPTION }),
  recording: Recording,
  node_ready: Type.Boolean(),
  rtmp_url: Nullable(
    Type.String({
      description:
        'RTMP ingest address, used with `stream_key`; `rtmps://<domain>:<port>/live` when the operator turned TLS on. Null once the stream is finished',
      examples: ['rtmp://live.example.com:1935/live'],
    }),
  ),
  playback_url: Nullable(
    Type.String({
      description:
        'Signed HLS URL: `{cdn_url}/<signature_segment>/<stream_id>/master.m3u8`.' +
        ' With a third-party CDN in front (`cdn.token_form` `query`): `{cdn_url}/<stream_id>/master.m3u8?svc=<signature>`, and every playlist names what it lists with the same `svc`',
    }),
  ),
  playback_url_expires_at: Nullable(Timestamp),
  embed_url: Type.String(),
  renditions: Type.Array(Type.String(), { examples: [['source', '480p']] }),
  max_ingest_resolution: Type.Integer({ enum: [480, 720, 1080] }),
  max_duration_seconds: Type.Integer(),
  metadata: Metadata,
  player: Type.Ref(PlayerSettings),
  chat: Type.Ref(ChatSettings),
  reservation_expires_at: Nullable(Timestamp),
  reservation_expires_in_seconds: Nullable(Type.Integer({ minimum: 0 })),
  created_at: Timestamp,
  went_live_at: Nullable(Timestamp),
  ended_at: Nullable(Timestamp),
  end_reason: Nullable(Type.String({ enum: [...END_REASONS] })),
  ingest: Ingest,
  cost: Type.Optional(Cost),
  viewers: Type.Optional(Viewers),
  viewers_now: Nullable(Type.Integer()),
  thumbnail: Nullable(
    Type.Object(
      {
        url: Type.String({
          description:
            "The latest still on the CDN: public, refreshed while live (the same address as the embed read's `poster_url`)",
        }),
        captured_at: Timestamp,
      },
      { description: 'Null until the first still of the live stream' },
    ),
  ),
};

/** Examples whose fields agree with each other (a stream live since 14:00, read at 14:30), composed fields would not. */
// Typed from the fields: the schemas below carry these examples, so their own types cannot be used here.
type StreamShape = Static<TObject<typeof streamFields>>;
const liveStreamExample: StreamShape = {
  id: 'str_8f3k2m9q7x1c4v6b0n5z',
  object: 'stream',
  name: 'Friday town hall',
  channel_id: 'chn_4v6b0n5z8f3k2m9q7x1c',
  status: 'live',
  profile: 'abr_basic',
  latency_mode: 'standard',
  record: true,
  replay: false,
  recording: {
    status: 'recording',
    bytes: null,
    duration_seconds: null,
    retention_days: 30,
    ready_at: null,
    delete_at: null,
    delete_reason: null,
    deleted_at: null,
  },
  node_ready: true,
  rtmp_url: 'rtmp://live.example.com:1935/live',
  playback_url: 'https://cdn.example.com/kq3Hd0Zp1Vb9Jc2Wm8Xy4A.1795442400/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8',
  playback_url_expires_at: '2026-11-22T19:00:00.000Z',
  embed_url: 'https://player.example.com/str_8f3k2m9q7x1c4v6b0n5z',
  renditions: ['source', '480p'],
  max_ingest_resolution: 720,
  max_duration_seconds: 14400,
  metadata: { event_id: 'evt-42' },
  player: DEFAULT_PLAYER,
  chat: DEFAULT_CHAT,
  reservation_expires_at: null,
  reservation_expires_in_seconds: null,
  created_at: '2026-11-22T13:52:10.000Z',
  went_live_at: '2026-11-22T14:00:00.000Z',
  ended_at: null,
  end_reason: null,
  ingest: {
    width: 1280,
    height: 720,
    kbps: 3400,
    observed_at: '2026-11-22T14:29:56.000Z',
    limit_warning: null,
    keyframe_interval_seconds: 2,
    keyframe_warning: false,
  },
  cost: {
    total_usd: '0.456000',
    delivery_bytes: 2_400_000_000,
    delivery_usd: '0.120000',
    delivery_counted_until: '2026-11-22T14:29:00.000Z',
    ingest_seconds: 1800,
    ingest_usd: '0.336000',
    storage_gb_hours: 0,
    storage_usd: '0.000000',
  },
  viewers: {
    now: { watching: 41, waiting: 0, buffering_pct: 0.4, measured_at: '2026-11-22T14:29:50.000Z', exact: true },
    peak: 57,
    peak_at: '2026-11-22T14:12:00.000Z',
    watch_minutes: 1130,
    source: 'player',
    cdn_counted_until: '2026-11-22T14:29:00.000Z',
  },
  viewers_now: 41,
  thumbnail: {
    url: 'https://cdn.example.com/_thumb/str_8f3k2m9q7x1c4v6b0n5z.jpg',
    captured_at: '2026-11-22T14:29:30.000Z',
  },
};

export const Stream = Type.Object(streamFields, {
  $id: 'Stream',
  description: '`cost` and `viewers` appear on the single-stream read only',
  examples: [liveStreamExample],
});
export type Stream = Static<typeof Stream>;

/** Just created: pending, the reservation running, nothing measured yet. */
const createdStreamExample: StreamShape & { stream_key: string; whip_url: string; srt_url: string } = {
  ...liveStreamExample,
  status: 'pending',
  recording: null,
  playback_url: 'https://cdn.example.com/Rw7Hd0Zp1Vb9Jc2Wm8Xy4A.1795440730/str_8f3k2m9q7x1c4v6b0n5z/master.m3u8',
  playback_url_expires_at: '2026-11-22T18:22:10.000Z',
  reservation_expires_at: '2026-11-22T14:22:10.000Z',
  reservation_expires_in_seconds: 1800,
  went_live_at: null,
  ingest: null,
  cost: undefined,
  viewers: undefined,
  viewers_now: null,
  thumbnail: null,
  stream_key: 'str_8f3k2m9q7x1c4v6b0n5z?key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2',
  whip_url: 'https://api.example.com/live/str_8f3k2m9q7x1c4v6b0n5z?direction=whip&key=Xk29fQ7mWc4Lp1Zr8Tn3Vb6Yh0Gd5Sa2',
  srt_url: 'srt://ingest.example.com:10000?passphrase=q3VbN8xLk2Zp7Wc1Rt5Yh9Gd0Sa4Mf6J&latency=1000000',
};

export const CreatedStream = Type.Object(
  {
    ...streamFields,
    stream_key: Type.String({
      description: '`<stream_id>?key=<secret>`; shown only here',
      examples: ['str_8f3k2m9q7x1c4v6b0n5z?key=Xk29...'],
    }),
    whip_url: Type.String({ description: 'WHIP ingest URL; contains the secret' }),
    srt_url: Nullable(
      Type.String({
        description:
          "SRT ingest URL (MPEG-TS over SRT, caller mode), as ffmpeg and OBS take it: the stream's own UDP port, its passphrase (derived from the secret: a new key changes it) and `latency` in microseconds; contains the secret. Null when every port of the SRT range is held",
      }),
    ),
  },
  { $id: 'CreatedStream', examples: [createdStreamExample] },
);
export type CreatedStream = Static<typeof CreatedStream>;

export const StreamList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref(Stream)), has_more: Type.Boolean() },
  { $id: 'StreamList' },
);

export const PlayerSeriesPoint = Type.Object(
  {
    minute: Timestamp,
    watching: Type.Integer({
      minimum: 0,
      description: 'Average players on the live player (playing, paused or buffering) over the minute',
    }),
    waiting: Type.Integer({ minimum: 0, description: 'Average players on the waiting screen over the minute' }),
    buffering_pct: Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'Share of watching time spent buffering, one decimal',
    }),
    exact: Type.Boolean({ description: 'Every player reported throughout the minute (false: a sampled estimate)' }),
  },
  { additionalProperties: false },
);
export type PlayerSeriesPoint = Static<typeof PlayerSeriesPoint>;

export const CdnSeriesPoint = Type.Object(
  {
    minute: Timestamp,
    viewers: Type.Integer({
      minimum: 0,
      description:
        'Distinct viewers (address and user agent, hashed, never stored) that fetched a segment of the stream in the minute, every player included',
    }),
  },
  { additionalProperties: false },
);
export type CdnSeriesPoint = Static<typeof CdnSeriesPoint>;

export const CountryShare = Type.Object(
  {
    country: Type.String({
      description: "ISO 3166-1 alpha-2 code of the viewers' addresses; `XX` when unknown",
      examples: ['DE'],
    }),
    share: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        "Share of the stream's CDN watch time (viewer-minutes) from the country, a fraction with four decimals",
    }),
    watch_minutes: Type.Integer({ minimum: 0, description: 'Viewer-minutes from the country' }),
  },
  { additionalProperties: false },
);
export type CountryShare = Static<typeof CountryShare>;

export const ViewerSeries = Type.Object({
  object: Type.Literal('viewer_series'),
  stream_id: StreamId,
  player: Type.Array(PlayerSeriesPoint, { description: 'Minutes with someone on the hosted player, oldest first' }),
  cdn: Type.Array(CdnSeriesPoint, {
    description: 'Minutes with viewers in the CDN log, oldest first: each minute once the log was read past its end',
  }),
  countries: Type.Array(CountryShare, {
    maxItems: 30,
    description: 'Watch time per country from the CDN log, largest first, up to 30; grows while the log is read',
  }),
});
export type ViewerSeries = Static<typeof ViewerSeries>;

/** `data` of stream and recording events: the stream at that moment, the fields the spec names. */
export const StreamEventData = Type.Object(
  {
    object: Type.Literal('stream'),
    id: StreamId,
    name: Name,
    channel_id: Nullable(Type.String({ description: 'The channel the stream was created in, if any' })),
    status: StringEnum(STREAM_STATUSES),
    metadata: Metadata,
    created_at: Timestamp,
    went_live_at: Nullable(Timestamp),
    ended_at: Nullable(Timestamp),
    end_reason: Nullable(Type.String({ enum: [...END_REASONS] })),
    recording: Nullable(
      Type.Object({
        status: StringEnum(RECORDING_STATUSES),
        bytes: Nullable(Type.Integer()),
        duration_seconds: Nullable(Type.Number()),
        ready_at: Nullable(Timestamp),
        deleted_at: Nullable(Timestamp),
      }),
    ),
  },
  {
    $id: 'StreamEventData',
    description:
      'The stream at the moment of the event; cost, viewers and download links are read through `GET /v1/streams/{id}`',
  },
);
export type StreamEventData = Static<typeof StreamEventData>;

export const SHARED_SCHEMAS = [PlayerSettings, ChatSettings, Stream, CreatedStream, StreamList, StreamEventData];
