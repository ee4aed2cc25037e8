import type { Db } from '../../platform/db/connect.js';
import { runComposed } from '../../platform/db/embed.js';
import { LOCKS } from '../../platform/db/locks.js';
import { STREAM_ID, type StreamRow, type StreamStatus } from './model.js';

/**
 * The columns a stream's presentation reads (`presentStream`): the reads select only these. The
 * driver's parsing of the whole row (39 columns, a key hash in hex among them) was a quarter of the
 * list's CPU (issue 16).
 */
export const PRESENTED_COLUMNS = [
  'id',
  'name',
  'status',
  'profile',
  'latency_mode',
  'record',
  'replay',
  'max_resolution',
  'max_duration_seconds',
  'recording_retention_days',
  'metadata',
  'player',
  'chat',
  'created_at',
  'reservation_expires_at',
  'went_live_at',
  'ended_at',
  'end_reason',
  'recording_status',
  'renditions',
  'ingest',
  'recording_bytes',
  'recording_duration_seconds',
  'recording_ready_at',
  'recording_delete_at',
  'recording_delete_reason',
  'recording_deleted_at',
  'thumbnail_at',
  'node_id',
  'channel_id',
] as const satisfies readonly (keyof StreamRow)[];

export type PresentedRow = Pick<StreamRow, (typeof PRESENTED_COLUMNS)[number]>;

/** The presented columns as select-list text (plain lower-case names: nothing to quote). */
const PRESENTED_SQL = PRESENTED_COLUMNS.join(', ');

/** A stream as `GET /v1/streams/{id}` reads it: the row and the json figures other domains compute beside it. */
export type StreamRead = PresentedRow & { viewer_figures: unknown; cost_figures: unknown };

/** The id of `readStreamSql`'s row, for the figures' subqueries (correlated: no parameter). */
export const READ_STREAM_ID = 'this_stream.id';

/** `readStreamSql`'s own parameters ($1 the id, $2 the account); the figures' parameters follow them. */
export const READ_STREAM_PARAMS = 2;

/**
 * One of the account's streams and its figures, in one statement (one round trip, issue 16),
 * composed once (`runComposed`): `viewers` and `cost` are json expressions of other domains over
 * `READ_STREAM_ID`; `cost` is evaluated only for a stream that went live (null otherwise: nothing
 * was used).
 */
export const readStreamSql = (figures: { viewers: string; cost: string }): string => `
  select ${PRESENTED_COLUMNS.map((c) => `this_stream.${c}`).join(', ')}, ${figures.viewers} as viewer_figures,
    case when this_stream.went_live_at is null then null else ${figures.cost} end as cost_figures
  from streams this_stream where this_stream.id = $1 and this_stream.account_id = $2`;

/** Runs `readStreamSql`'s statement: `figureParams` are the values of the figures' parameters. */
export async function readStream(
  db: Db,
  text: string,
  accountId: string,
  id: string,
  figureParams: readonly unknown[],
): Promise<StreamRead | null> {
  if (!STREAM_ID.test(id)) return null;
  const [row] = await runComposed<StreamRead>(db, text, [id, accountId, ...figureParams]);
  return row ?? null;
}

/**
 * Newest first by insertion order, so pages neither skip nor repeat while streams are created.
 * `after` is the id of the previous page's last stream, found in the same statement (one round
 * trip); one that names no stream of the account gives an empty page (see `findSeq`).
 */
export async function listStreams(
  db: Db,
  accountId: string,
  opts: { limit: number; after: string | null; status: StreamStatus | null; channelId: string | null },
): Promise<PresentedRow[]> {
  const params: unknown[] = [accountId, opts.limit];
  const filters = { status: opts.status !== null, channel: opts.channelId !== null, after: opts.after !== null };
  if (opts.status !== null) params.push(opts.status);
  if (opts.channelId !== null) params.push(opts.channelId);
  if (opts.after !== null) params.push(opts.after);
  const key = (filters.status ? 4 : 0) + (filters.channel ? 2 : 0) + (filters.after ? 1 : 0);
  return runComposed<PresentedRow>(db, (LIST_SQL[key] ??= listSql(filters)), params);
}

/**
 * `listStreams`'s statement with and without each filter (composed once each): a filter the page
 * does not use is left out, not written `$n is null or ...`, so that the plan walks the
 * (account, seq) index, or the (channel, seq) one. Parameters: account, limit, then the status,
 * the channel and the cursor when used.
 */
function listSql(used: { status: boolean; channel: boolean; after: boolean }): string {
  let n = 2;
  const status = used.status ? `and status = $${++n}` : '';
  const channel = used.channel ? `and channel_id = $${++n}` : '';
  const after = used.after ? `and seq < (select seq from streams where id = $${++n} and account_id = $1)` : '';
  return `
  select ${PRESENTED_SQL} from streams where account_id = $1 ${status} ${channel} ${after}
  order by seq desc limit $2`;
}
const LIST_SQL: string[] = [];

export async function findSeq(db: Db, accountId: string, id: string): Promise<number | null> {
  const [row] = await db<{ seq: number }[]>`select seq from streams where id = ${id} and account_id = ${accountId}`;
  return row?.seq ?? null;
}

/** What the creation limits need about an account's streams, in one round trip. */
export interface CreationCounts {
  /** Pending streams, counted up to `pendingUpTo` (enough to compare with the limit). */
  pending: number;
  /** Streams created since `since`, counted up to `recentUpTo`, and the oldest of those. */
  recent: number;
  oldestRecent: Date | null;
}

/**
 * Run it after locking the account row, in a statement of its own: under READ COMMITTED a
 * statement that waited for the lock would still count with the snapshot it started with.
 */
export async function creationCounts(
  db: Db,
  accountId: string,
  opts: { since: Date; pendingUpTo: number; recentUpTo: number },
): Promise<CreationCounts> {
  const [row] = await db<{ pending: number; recent: number; oldest_recent: Date | null }[]>`
    select
      (select count(*)::int from (
        select 1 from streams where account_id = ${accountId} and status = 'pending' limit ${opts.pendingUpTo}) p) as pending,
      r.recent, r.oldest_recent
    from (
      select count(*)::int as recent, min(created_at) as oldest_recent from (
        select created_at from streams where account_id = ${accountId} and created_at > ${opts.since}
        order by created_at limit ${opts.recentUpTo}) c) r`;
  return { pending: row?.pending ?? 0, recent: row?.recent ?? 0, oldestRecent: row?.oldest_recent ?? null };
}

/** Pending streams whose reservation ran out, locked for this run; other nodes skip them. */
export async function lockExpiredReservations(db: Db, now: Date, batch: number): Promise<StreamRow[]> {
  return db<StreamRow[]>`
    select * from streams where status = 'pending' and reservation_expires_at <= ${now}
    order by reservation_expires_at limit ${batch} for update skip locked`;
}

/** A pending or live stream whose player may refuse the public now: by its settings, or once its watch minutes are spent. */
export interface PublicPlayerRow {
  id: string;
  /** Switched off, members-only, or past `closed_at` (see refusesPublic). */
  refused: boolean;
  watch_minutes_limit: number | null;
}

/**
 * Pending and live streams, and ended ones whose replay may be offered (docs/decisions.md, "Replays
 * (issue 33)"), whose player refuses the public or has a watch-minutes limit; other players are left out.
 */
export async function publicPlayers(db: Db, now: Date): Promise<PublicPlayerRow[]> {
  return db<PublicPlayerRow[]>`
    select id, refused, (player->>'watch_minutes_limit')::int as watch_minutes_limit from (
      select id, player,
        coalesce((player->>'enabled')::boolean is false or (player->>'require_viewer_token')::boolean or (player->>'closed_at')::timestamptz <= ${now}, false) as refused
      from streams where status in ('pending', 'live')
        or (status = 'ended' and replay and recording_status = 'ready' and replay_made_at is not null)) s
    where refused or player->>'watch_minutes_limit' is not null`;
}

/**
 * Orders nginx's refusal files against the patches that write them: a rebuild holds the lock
 * exclusively from its read to its last file, a patch of `player` shares it until its commit.
 */
export async function lockPublicRefusals(db: Db, mode: 'rebuild' | 'patch'): Promise<void> {
  if (mode === 'rebuild') await db`select pg_advisory_xact_lock(${LOCKS.publicRefusals})`;
  else await db`select pg_advisory_xact_lock_shared(${LOCKS.publicRefusals})`;
}

/**
 * A UDP port of the SRT range that no stream which can be published to holds, or null when every
 * one is held. Under a lock held to the creation's commit, so two creations cannot both take it;
 * the wait is one index lookup and an insert.
 */
export async function takeSrtPort(db: Db, range: { port_min: number; port_max: number }): Promise<number | null> {
  await db`select pg_advisory_xact_lock(${LOCKS.srtPorts})`;
  const [row] = await db<{ port: number }[]>`
    select p as port from generate_series(${range.port_min}::int, ${range.port_max}::int) p
    where not exists (select 1 from streams where srt_port = p and status in ('pending', 'live'))
    limit 1`;
  return row?.port ?? null;
}

/**
 * Live streams whose node stopped answering (not heard from since `cutoff`, or removed) while its
 * publisher was on it, locked: the caller notes media still reaching the origin, or takes the
 * publisher as gone since the node's last heartbeat, so the usual reconnect window runs
 * (docs/decisions.md, "One broadcast across a node's death").
 */
export async function lockOrphanedLive(
  db: Db,
  cutoff: Date,
): Promise<(StreamRow & { node_last_seen_at: Date | null; node_status: string })[]> {
  return db<(StreamRow & { node_last_seen_at: Date | null; node_status: string })[]>`
    select s.*, n.last_seen_at as node_last_seen_at, n.status as node_status from streams s join nodes n on n.id = s.node_id
    where s.status = 'live' and s.publisher_client_id is not null
      and (n.status = 'removed' or n.last_seen_at is null or n.last_seen_at < ${cutoff})
    for update of s skip locked`;
}

/** Pending streams reserved on a node that is down (not heard from since `cutoff`), draining or removed, locked. */
export async function lockStrandedPending(
  db: Db,
  cutoff: Date,
): Promise<(StreamRow & { node_status: string; node_last_seen_at: Date | null })[]> {
  return db<(StreamRow & { node_status: string; node_last_seen_at: Date | null })[]>`
    select s.*, n.status as node_status, n.last_seen_at as node_last_seen_at
    from streams s join nodes n on n.id = s.node_id
    where s.status = 'pending'
      and (n.status <> 'active' or n.last_seen_at is null or n.last_seen_at < ${cutoff})
    order by s.created_at limit 200
    for update of s skip locked`;
}
