import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';
import { CHANNEL_ID, LATENCY_MODES, StreamId } from '../../streams/model.js';
import { BEAT_STATES } from '../../audience/viewers/counter.js';

export const EMBED_STATUSES = ['pending', 'live', 'ended', 'unavailable', 'closed'] as const;
export type EmbedStatus = (typeof EMBED_STATUSES)[number];

export const ACCESS = ['public', 'viewer_token'] as const;

const Beacon = Type.Object(
  {
    rate: Type.Number({ minimum: 0, maximum: 1, description: 'A player reports only while its `u` is below this' }),
    interval_seconds: Type.Integer({ minimum: 1, description: 'Report this often (with about 10% random jitter)' }),
  },
  { description: 'Viewer reporting; null once the stream is over and no replay is offered' },
);

export const Embed = Type.Object(
  {
    object: Type.Literal('embed'),
    id: StreamId,
    status: StringEnum(EMBED_STATUSES, {
      description:
        '`unavailable`: expired or cancelled; `closed`: the player was closed (`player.enabled`, `closed_at`, `watch_minutes_limit`)',
    }),
    title: Nullable(Type.String({ description: 'The stream name, unless `player.show_name` is false' })),
    playback_url: Nullable(
      Type.String({
        description:
          "While live: signed HLS URL, the same for every viewer; after the end, the replay's while one is offered (`replay`). Null for members-only streams. Its signature is a path segment, or the `svc` query parameter with a third-party CDN in front (`cdn.token_form` `query`)",
      }),
    ),
    playback_url_expires_at: Nullable(Timestamp),
    replay: Type.Boolean({
      description:
        "True when `playback_url` (or a member's personal address) is the replay of the ended stream: HLS VOD made from its recording, offered when the stream has `replay` true and its recording is ready, until the recording is deleted",
    }),
    went_live_at: Nullable(Timestamp),
    ended_at: Nullable(Timestamp),
    poll_after_seconds: Nullable(
      Type.Integer({
        description:
          'Ask again after this many seconds (5 pending, 60 live, 30 while a replay is awaited or offered); null: stop asking',
      }),
    ),
    beacon: Nullable(Beacon),
    access: StringEnum(ACCESS, { description: '`viewer_token` for members-only streams' }),
    poster_url: Type.String({
      description: 'The latest still of the stream on the CDN (a neutral picture until the first one)',
    }),
  },
  { $id: 'Embed', additionalProperties: false },
);
export type Embed = Static<typeof Embed>;

export const ChannelEmbed = Type.Object(
  {
    object: Type.Literal('channel_embed'),
    id: Type.String({ pattern: CHANNEL_ID.source, examples: ['chn_4k8m2q9x7c1v3b6n0z5w'] }),
    name: Nullable(Type.String({ description: 'The channel name' })),
    stream: Type.Union([Type.Ref(Embed), Type.Null()], {
      description:
        "The embed read of the stream the channel page shows: the channel's live stream, else its next pending one (the oldest), else its latest ended one; null when it has none",
    }),
    latency_mode: Nullable(
      StringEnum(LATENCY_MODES, {
        description: "`stream`'s latency mode (a channel page tunes its player to it); null when there is no stream",
      }),
    ),
    poll_after_seconds: Type.Integer({
      description:
        'Ask again after this many seconds: 5 while no stream is live, 30 while one is (a channel may always get a new stream)',
    }),
  },
  { $id: 'ChannelEmbed', additionalProperties: false },
);
export type ChannelEmbed = Static<typeof ChannelEmbed>;

export const BeatQuery = Type.Object(
  {
    s: Type.String({
      pattern: '^[A-Za-z0-9_-]{8,64}$',
      description: 'Random id for one page load (8-64 of A-Z a-z 0-9 _ -)',
    }),
    st: StringEnum(BEAT_STATES, { description: '`w` waiting, `p` playing, `z` paused, `b` buffering' }),
    u: Type.Number({ minimum: 0, exclusiveMaximum: 1, description: 'Drawn once per page load, 0 <= u < 1' }),
    t: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description:
          'The session token of a viewer session of this stream (`POST /v1/embed/{id}/session`): the beat is also an attendance report',
      }),
    ),
  },
  { additionalProperties: false },
);
export type BeatQuery = Static<typeof BeatQuery>;

export const EMBED_SCHEMAS = [Embed, ChannelEmbed];
