/**
 * What other domains know of a stream: its vocabulary (statuses, end reasons, profiles, latency
 * modes, ids), its row, and the few operations on one row that they share (lock, change, own,
 * publish sessions, capacity). One of the folder's doors (with service.ts and transitions.ts, see
 * `.dependency-cruiser.mjs`); the bottom of the folder, so it imports nothing else from it.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Config } from '../../config/config.js';
import { notFound } from '../../core/errors.js';
import { addSeconds } from '../../core/time.js';
import type { Db } from '../../platform/db/connect.js';
import { Nullable, Timestamp } from '../../platform/http/schema-helpers.js';

export const STREAM_STATUSES = ['pending', 'live', 'ended', 'expired', 'cancelled'] as const;
export type StreamStatus = (typeof STREAM_STATUSES)[number];
export const FINISHED: readonly StreamStatus[] = ['ended', 'expired', 'cancelled'];

export const END_REASONS = [
  'deleted',
  'disconnected',
  'duration_limit',
  'reservation_ttl',
  'limit_bitrate',
  'limit_resolution',
  'insufficient_credit',
  'simulcast_not_supported',
  'provision_failed',
] as const;
export type EndReason = (typeof END_REASONS)[number];

export const RECORDING_STATUSES = [
  'recording',
  'processing',
  'ready',
  'deleting',
  'deleted',
  'failed',
  'not_recorded',
  'none',
  'legacy',
] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];

export const PROFILES = ['abr_basic', 'passthrough'] as const;
export type Profile = (typeof PROFILES)[number];

export const LATENCY_MODES = ['standard', 'low'] as const;
export type LatencyMode = (typeof LATENCY_MODES)[number];

/** The hosted player's hls.js settings for a mode (player.js reads them from the page's `data-tuning`). */
export interface PlayerTuning {
  /** Seconds behind the player's estimate of the live edge it aims for (hls.js `liveSyncDuration`). */
  liveSyncDuration: number;
  /** Further behind than this, the player jumps to the edge (hls.js `liveMaxLatencyDuration`). */
  liveMaxLatencyDuration: number;
  /**
   * Pieces a playlist must list before playback starts (hls.js `initialLiveManifestSize`): one; at
   * go-live the player waits until the target fits in it instead (docs/decisions.md, "Instant start").
   */
  initialLiveManifestSize: number;
  /** Seconds of buffer left at its low point, kept when pieces are longer than the mode's. */
  margin: number;
}

export interface LatencyTuning {
  /** Length of the pieces the ladder cuts; null: the operator's `live.segment_seconds` (default 4). */
  segmentSeconds: number | null;
  player: PlayerTuning;
}

/**
 * What a latency mode means, said once: the ladder's pieces (the live worker), the hosted player's
 * targets (rendered into the page), and `latency_mode`'s description in the API (built from these).
 *
 * The delay behind the publisher is the player's distance from its estimate of the live edge (its
 * target, `liveSyncDuration`) plus the pipeline's: a piece is listed about 0.55 s after its last
 * frame was captured, and the player's watch sees it up to 0.2 s later (the player bench measures
 * the whole: about target + 0.6 s). With the edge timed within 0.2 s (player.js's `edgeLoader`),
 * the buffer's low point, just before the next piece is listed, is the target less one piece:
 * `margin`. Pieces are cut on the publisher's keyframes (the top quality is copied), so a low mode
 * publisher with 2-second keyframes still gets 2-second pieces, and the player then raises its
 * target to keep the margin. Measured: docs/decisions.md, "Low-latency mode".
 */
export const LATENCY: Readonly<Record<LatencyMode, LatencyTuning>> = {
  standard: {
    segmentSeconds: null,
    player: { liveSyncDuration: 4.5, liveMaxLatencyDuration: 12, initialLiveManifestSize: 1, margin: 0.5 },
  },
  low: {
    segmentSeconds: 1,
    player: { liveSyncDuration: 2, liveMaxLatencyDuration: 8, initialLiveManifestSize: 1, margin: 1 },
  },
};

/** The length of a mode's pieces on this appliance. */
export const segmentSeconds = (mode: LatencyMode, live: Pick<Config['live'], 'segment_seconds'>): number =>
  LATENCY[mode].segmentSeconds ?? live.segment_seconds;

/** What the pipeline adds to the player's target (see `LATENCY`). */
const PIPELINE_SECONDS = 0.6;

/** About how many seconds the hosted player shows a mode behind the publisher. */
export const secondsBehind = (mode: LatencyMode): number =>
  Math.round(LATENCY[mode].player.liveSyncDuration + PIPELINE_SECONDS);

/** Blank means no name (streams and channels). */
export const normaliseName = (name: string | null): string | null =>
  name === null || name.trim() === '' ? null : name;

export const STREAM_ID = /^str_[a-z0-9]{20}$/;
export const CHANNEL_ID = /^chn_[a-z0-9]{20}$/;
export const ChannelId = Type.String({ pattern: CHANNEL_ID.source, examples: ['chn_4v6b0n5z8f3k2m9q7x1c'] });
export const StreamId = Type.String({ pattern: STREAM_ID.source, examples: ['str_8f3k2m9q7x1c4v6b0n5z'] });

/** Any text: an id that is not a stream id of the account is `404 not_found`, never a 400 (spec: get/patch/delete 200, 401, 403, 404). */
export const StreamParams = Type.Object(
  { id: Type.String({ description: 'Stream id (`str_...`)' }) },
  { additionalProperties: false },
);
/** Any text, like a stream's: an id that is not a channel of the account is `404 not_found`. */
export const ChannelParams = Type.Object(
  { id: Type.String({ description: 'Channel id (`chn_...`)' }) },
  { additionalProperties: false },
);
/** Public endpoints: any text names a stream or not; a malformed id is an unknown one (404, counted), not a 400 that tells ids apart. */
export const PublicStreamParams = Type.Object({ id: Type.String({ maxLength: 200 }) }, { additionalProperties: false });

/** `expires_in` of signed links (playback and download): 60 s to 7 days. */
export const ExpiresIn = (defaultDescription: string, fallback?: number) =>
  Type.Integer({
    minimum: 60,
    maximum: 604_800,
    ...(fallback ? { default: fallback } : {}),
    description: `Seconds the link works, 60 s to 7 days; default ${defaultDescription}`,
  });

const Hostname = Type.String({
  minLength: 1,
  maxLength: 253,
  pattern: '^(\\*\\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$',
  description: 'Lowercase host name, optionally with a leading `*.` and a port',
});

const playerFields = {
  show_name: Type.Boolean({ description: 'Default true. False keeps the name out of the public embed read entirely' }),
  require_viewer_token: Type.Boolean({ description: 'Default false. Members-only: the player needs a viewer token' }),
  enabled: Type.Boolean({ description: 'Default true. False switches the public hosted player off' }),
  allowed_domains: Nullable(
    Type.Array(Hostname, { maxItems: 50, description: 'Sites allowed to embed the player and chat; null allows any' }),
  ),
  watch_minutes_limit: Nullable(
    Type.Integer({
      minimum: 1,
      maximum: 100_000_000,
      description: 'Player closes once this many viewer minutes were watched; null: no limit',
    }),
  ),
  closed_at: Nullable(
    Type.String({
      format: 'date-time',
      description: 'From this time the player shows the stream as closed; null: never',
    }),
  ),
};

/** A stream's hosted player settings, stored on its row as the API shows them. */
export const PlayerSettings = Type.Object(playerFields, { $id: 'PlayerSettings', additionalProperties: false });
export type PlayerSettings = Static<typeof PlayerSettings>;
export const PlayerSettingsInput = Type.Partial(Type.Object(playerFields, { additionalProperties: false }), {
  additionalProperties: false,
});

export const DEFAULT_PLAYER: PlayerSettings = {
  show_name: true,
  require_viewer_token: false,
  enabled: true,
  allowed_domains: null,
  watch_minutes_limit: null,
  closed_at: null,
};

const chatFields = {
  enabled: Type.Boolean({
    description: 'Default true. False closes posting and reactions; the feed and history still answer',
  }),
  anonymous_posting: Type.Boolean({
    description:
      'Default true. Viewers without a viewer token may post with a nickname (never on members-only streams)',
  }),
  slow_mode_seconds: Type.Integer({
    minimum: 0,
    maximum: 3600,
    description: 'Default 0 (off). One post per viewer per this many seconds; moderators are exempt',
  }),
  reaction_sampling: Nullable(
    Type.Number({
      minimum: 0.001,
      maximum: 1,
      description:
        'Share of players that send their reactions; null (default): automatic, the beacon rate (about 400 senders)',
    }),
  ),
};

/** A stream's chat settings, stored on its row as the API shows them. */
export const ChatSettings = Type.Object(chatFields, { $id: 'ChatSettings', additionalProperties: false });
export type ChatSettings = Static<typeof ChatSettings>;
export const ChatSettingsInput = Type.Partial(Type.Object(chatFields, { additionalProperties: false }), {
  additionalProperties: false,
});

export const DEFAULT_CHAT: ChatSettings = {
  enabled: true,
  anonymous_posting: true,
  slow_mode_seconds: 0,
  reaction_sampling: null,
};

/** The publisher's last measurement as the API shows it (also what the operator dashboard shows per stream). */
export const Ingest = Nullable(
  Type.Object({
    width: Nullable(Type.Integer()),
    height: Nullable(Type.Integer()),
    kbps: Nullable(Type.Integer()),
    observed_at: Timestamp,
    limit_warning: Nullable(Type.String({ enum: ['limit_bitrate', 'limit_resolution'] })),
    keyframe_interval_seconds: Nullable(Type.Number()),
    keyframe_warning: Type.Boolean(),
  }),
);

/** The spec's Ingest object (`Ingest` above), stored as measured. */
export interface IngestMeasurement {
  width: number | null;
  height: number | null;
  kbps: number | null;
  observed_at: string;
  limit_warning: 'limit_bitrate' | 'limit_resolution' | null;
  keyframe_interval_seconds: number | null;
  keyframe_warning: boolean;
}

/** Tries at making a replay before it is given up (docs/decisions.md, "Replays (issue 33)"). */
export const REPLAY_MAX_ATTEMPTS = 3;

export interface StreamRow {
  seq: number;
  id: string;
  account_id: string;
  name: string | null;
  status: StreamStatus;
  profile: Profile;
  latency_mode: LatencyMode;
  record: boolean;
  replay: boolean;
  /** When the replay's HLS files were made from the ready recording (docs/decisions.md, "Replays (issue 33)"). */
  replay_made_at: Date | null;
  replay_attempts: number;
  max_resolution: 480 | 720 | 1080;
  max_duration_seconds: number;
  recording_retention_days: number | null;
  metadata: Record<string, unknown> | null;
  player: PlayerSettings;
  chat: ChatSettings;
  key_hash: Buffer;
  created_at: Date;
  reservation_expires_at: Date;
  went_live_at: Date | null;
  ended_at: Date | null;
  end_reason: EndReason | null;
  recording_status: RecordingStatus | null;
  renditions: string[] | null;
  publisher_client_id: string | null;
  publisher_left_at: Date | null;
  ingest: IngestMeasurement | null;
  limit_warning_since: Date | null;
  recording_bytes: number | null;
  recording_duration_seconds: number | null;
  recording_ready_at: Date | null;
  recording_delete_at: Date | null;
  recording_delete_reason: 'retention' | 'zero_balance' | null;
  recording_deleted_at: Date | null;
  recording_attempts: number;
  recording_next_attempt_at: Date | null;
  recording_error: string | null;
  thumbnail_at: Date | null;
  /** The UDP port its SRT listener takes while it can be published to; null: no SRT (none was free). */
  srt_port: number | null;
  /** `srt` while its publisher comes through the SRT relay, whose CPU capacity then counts. */
  ingest_relay: IngestRelay | null;
  /** The ingest node its capacity is reserved on (pending) or whose ladder runs it (live); null: the one box, before nodes. */
  node_id: string | null;
  /** When the origin last saw its media while its node was silent to the database (a cut link, not a dead node). */
  media_seen_at: Date | null;
  /** The channel it was created in (docs/decisions.md, "Channels: the API"); null once that channel is deleted. */
  channel_id: string | null;
}

type LaterFields =
  | 'seq'
  | 'went_live_at'
  | 'ended_at'
  | 'end_reason'
  | 'recording_status'
  | 'renditions'
  | 'publisher_client_id'
  | 'publisher_left_at'
  | 'ingest'
  | 'limit_warning_since'
  | 'recording_bytes'
  | 'recording_duration_seconds'
  | 'recording_ready_at'
  | 'recording_delete_at'
  | 'recording_delete_reason'
  | 'recording_deleted_at'
  | 'recording_attempts'
  | 'recording_next_attempt_at'
  | 'recording_error'
  | 'thumbnail_at'
  | 'ingest_relay'
  | 'media_seen_at'
  | 'replay_made_at'
  | 'replay_attempts';

export type NewStream = Omit<StreamRow, LaterFields | 'channel_id'> & { channel_id?: string | null };

export type StreamChanges = Partial<Omit<StreamRow, 'seq' | 'id' | 'account_id' | 'created_at'>>;

export async function insertStream(db: Db, stream: NewStream): Promise<StreamRow> {
  const [row] = await db<StreamRow[]>`
    insert into streams ${db({ ...stream, metadata: jsonOrNull(db, stream.metadata), player: db.json(stream.player), chat: db.json(stream.chat) })}
    returning *`;
  return row as StreamRow;
}

/** Path ids are any text; one that cannot be a stream id names none (and never reaches SQL: U+0000). */
export async function findStream(db: Db, accountId: string, id: string): Promise<StreamRow | null> {
  if (!STREAM_ID.test(id)) return null;
  const [row] = await db<StreamRow[]>`select * from streams where id = ${id} and account_id = ${accountId}`;
  return row ?? null;
}

/** One of the account's streams; any other id (another account's, malformed, none) is `404 not_found`. */
export async function ownStream(db: Db, accountId: string, id: string): Promise<StreamRow> {
  const row = await findStream(db, accountId, id);
  if (!row) throw notFound('stream');
  return row;
}

/** One of the account's channels (its id); any other id is `404 not_found`, like a stream's. */
export async function ownChannel(db: Db, accountId: string, id: string): Promise<string> {
  const [row] = CHANNEL_ID.test(id)
    ? await db<{ id: string }[]>`select id from channels where id = ${id} and account_id = ${accountId}`
    : [];
  if (!row) throw notFound('channel');
  return row.id;
}

/**
 * For the ingest side, which knows a stream by id alone. NO KEY UPDATE: no one changes a stream's
 * id, and a stronger lock would block the foreign-key checks of rows that name the stream (a
 * metering run's charges, which hold the account's row by then: admission, which locks the account
 * next, deadlocked with it).
 */
export async function lockStreamById(db: Db, id: string): Promise<StreamRow | null> {
  if (!STREAM_ID.test(id)) return null;
  const [row] = await db<StreamRow[]>`select * from streams where id = ${id} for no key update`;
  return row ?? null;
}

export async function lockStream(db: Db, accountId: string, id: string): Promise<StreamRow | null> {
  if (!STREAM_ID.test(id)) return null;
  const [row] = await db<
    StreamRow[]
  >`select * from streams where id = ${id} and account_id = ${accountId} for no key update`;
  return row ?? null;
}

export async function updateStream(db: Db, id: string, changes: StreamChanges): Promise<StreamRow> {
  const values: Record<string, unknown> = { ...changes };
  if ('metadata' in changes) values.metadata = jsonOrNull(db, changes.metadata ?? null);
  if (changes.player) values.player = db.json(changes.player);
  if (changes.chat) values.chat = db.json(changes.chat);
  if ('ingest' in changes) values.ingest = changes.ingest ? db.json(changes.ingest as never) : null;
  const [row] = await db<StreamRow[]>`update streams set ${db(values)} where id = ${id} returning *`;
  return row as StreamRow;
}

const jsonOrNull = (db: Db, value: Record<string, unknown> | null) => (value === null ? null : db.json(value as never));

/**
 * Publishing time, what ingest is charged on: a session per admitted publisher. A new publisher
 * closes a session nginx lost track of (the old publisher is gone), so at most one is open.
 */
export async function publisherJoined(tx: Db, streamId: string, at: Date): Promise<void> {
  await publisherGone(tx, streamId, at);
  await tx`insert into publish_sessions (stream_id, started_at) values (${streamId}, ${at}) on conflict do nothing`;
}

/** Closes the open session, if any; never before it started (a clock that stepped back). */
export async function publisherGone(tx: Db, streamId: string, at: Date): Promise<void> {
  await tx`
    update publish_sessions set ended_at = greatest(started_at, ${at}::timestamptz)
    where stream_id = ${streamId} and ended_at is null`;
}

/**
 * Cores a stream's ladder costs, by what it may encode: the declared resolution decides, because
 * capacity is reserved before the source is seen. A 480 stream's ladder only copies.
 */
export function streamCost(capacity: Config['capacity'], profile: Profile, maxResolution: number): number {
  const cost = capacity.streamCost;
  if (profile === 'passthrough' || maxResolution < 720) return cost.copy_only;
  return maxResolution >= 1080 ? cost.abr_1080 : cost.abr_720;
}

/** A node's capacity: what it said of its cores at its last heartbeat, the cluster's stream costs. */
export const nodeCapacity = (
  capacity: Config['capacity'],
  node: { cores: number | null; reserved_cores: number | null },
) => ({
  ...capacity,
  cores: node.cores ?? capacity.cores,
  reservedCores: node.reserved_cores ?? capacity.reservedCores,
});

/** Cores the ladders may use: the machine less what the API, PostgreSQL and nginx need. */
export const ladderBudget = (capacity: Config['capacity']): number =>
  Math.max(0, capacity.cores - capacity.reservedCores);

/**
 * How a publisher reached nginx when something of the appliance's own carries its media: the SRT
 * relay (ffmpeg), nginx's stream module (RTMPS's TLS) or the WHIP relay (ffmpeg). Each costs CPU
 * beside the ladder (`capacity.stream_cost.<relay>_relay`, measured by `npm run bench -- ingest`).
 */
export const INGEST_RELAYS = ['srt', 'rtmps', 'whip'] as const;
export type IngestRelay = (typeof INGEST_RELAYS)[number];

export const relayCost = (capacity: Config['capacity'], relay: IngestRelay | null | undefined): number =>
  relay ? capacity.streamCost[`${relay}_relay`] : 0;

export interface LoadRow {
  profile: Profile;
  max_resolution: number;
  count: number;
  /** How many of them publish through each relay. */
  srt_relays: number;
  rtmps_relays: number;
  whip_relays: number;
}

/** Streams holding capacity (on one node, or all), by kind: pending ones keep their reservation, live ones run. */
export async function load(db: Db, statuses: StreamStatus[], nodeId: string | null = null): Promise<LoadRow[]> {
  return db<LoadRow[]>`
    select profile, max_resolution, count(*)::int as count,
      count(*) filter (where ingest_relay = 'srt')::int as srt_relays,
      count(*) filter (where ingest_relay = 'rtmps')::int as rtmps_relays,
      count(*) filter (where ingest_relay = 'whip')::int as whip_relays
    from streams
    where status in ${db(statuses)} ${nodeId === null ? db`` : db`and node_id = ${nodeId}`}
    group by profile, max_resolution`;
}

export function loadOf(capacity: Config['capacity'], rows: LoadRow[]): number {
  return rows.reduce(
    (sum, r) =>
      sum +
      r.count * streamCost(capacity, r.profile, r.max_resolution) +
      INGEST_RELAYS.reduce((relays, relay) => relays + r[`${relay}_relays`] * relayCost(capacity, relay), 0),
    0,
  );
}

/**
 * How many more streams of this kind fit; what `no_capacity` and publisher refusals rest on.
 * `relay`: how the publisher comes in, when a relay of the appliance's carries it (its CPU too).
 */
export function fits(
  capacity: Config['capacity'],
  rows: LoadRow[],
  profile: Profile,
  maxResolution: number,
  relay: IngestRelay | null = null,
): boolean {
  const cost = streamCost(capacity, profile, maxResolution) + relayCost(capacity, relay);
  // A little tolerance: costs are fractions and 2 × 0.85 must fit in 1.7.
  return loadOf(capacity, rows) + cost <= ladderBudget(capacity) + 1e-9;
}

/** Until the stream could no longer be live, plus an hour (spec: playback token default). */
export function defaultPlaybackExpiry(
  row: Pick<StreamRow, 'went_live_at' | 'reservation_expires_at' | 'max_duration_seconds'>,
): Date {
  const start = row.went_live_at ?? row.reservation_expires_at;
  return addSeconds(start, row.max_duration_seconds + 3600);
}
