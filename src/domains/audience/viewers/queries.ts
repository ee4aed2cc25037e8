import type { Db, Tx } from '../../../platform/db/connect.js';
import type { MinuteRow, NowEstimate } from './counter.js';

/** A stream's minutes, every node's share added: the columns of `MinuteRow` without the stream. */
export type StoredMinute = Omit<MinuteRow, 'stream_id'>;

/**
 * Adds each node's share into its (stream, minute) row: additive, so nodes write the same rows.
 * Rows of streams deleted meanwhile are skipped (they would break the whole batch). At most one
 * row per (stream, minute) in `rows` (`mergeMinutes`). The streams' audience rows are locked
 * first, all at once (`lock_stream_audience`, migration 014): the statement's insert and update
 * triggers lock them set by set, which alone could deadlock with another writer.
 */
export async function addMinutes(tx: Tx, rows: MinuteRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  await tx`select lock_stream_audience(${[...new Set(rows.map((r) => r.stream_id))]}::text[])`;
  const column = <K extends keyof MinuteRow>(key: K) => rows.map((r) => r[key]);
  // Booleans go through `array`: a plain array of them is sent as one boolean.
  const result = await tx`
    insert into viewer_minutes (stream_id, minute, watching_seconds, waiting_seconds, buffering_seconds, watched_seconds, exact)
    select r.* from unnest(
      ${column('stream_id')}::text[],
      ${rows.map((r) => r.minute.toISOString())}::timestamptz[],
      ${column('watching_seconds')}::float8[],
      ${column('waiting_seconds')}::float8[],
      ${column('buffering_seconds')}::float8[],
      ${column('watched_seconds')}::float8[],
      ${tx.array(column('exact'))}::boolean[]
    ) as r (stream_id, minute, watching_seconds, waiting_seconds, buffering_seconds, watched_seconds, exact)
    where exists (select 1 from streams s where s.id = r.stream_id)
    on conflict (stream_id, minute) do update set
      watching_seconds = viewer_minutes.watching_seconds + excluded.watching_seconds,
      waiting_seconds = viewer_minutes.waiting_seconds + excluded.waiting_seconds,
      buffering_seconds = viewer_minutes.buffering_seconds + excluded.buffering_seconds,
      watched_seconds = viewer_minutes.watched_seconds + excluded.watched_seconds,
      exact = viewer_minutes.exact and excluded.exact`;
  return result.count;
}

export async function listMinutes(db: Db, streamId: string): Promise<StoredMinute[]> {
  return db<StoredMinute[]>`
    select minute, watching_seconds, waiting_seconds, buffering_seconds, watched_seconds, exact
    from viewer_minutes where stream_id = ${streamId} order by minute`;
}

/** The player's watched seconds of a stream so far, as `stream_audience` keeps them (0 without a row). */
export async function watchedSeconds(db: Db, streamId: string): Promise<number> {
  const [row] = await db<
    { watched_seconds: number }[]
  >`select watched_seconds from stream_audience where stream_id = ${streamId}`;
  return row?.watched_seconds ?? 0;
}

/** `watchedSeconds` of several streams in one statement; streams without a row are left out. */
export async function watchedSecondsOf(db: Db, streamIds: string[]): Promise<Map<string, number>> {
  const rows = await db<{ stream_id: string; watched_seconds: number }[]>`
    select stream_id, watched_seconds from stream_audience where stream_id = any(${streamIds}::text[])`;
  return new Map(rows.map((r) => [r.stream_id, r.watched_seconds]));
}

/**
 * A stream's audience as migration 014's triggers keep it in `stream_audience` (recomputed from
 * the player's minutes and the CDN log's tables whenever they change): the player's minutes,
 * watched seconds and peak, and what the CDN log counted. A stream without a row has nothing counted.
 */
export interface Audience {
  player_minutes: number;
  watched_seconds: number;
  peak_minute: Date | null;
  peak_watching_seconds: number | null;
  /** Anything of the stream was counted from the CDN log (bytes or viewers). */
  cdn_has_data: boolean;
  /** Viewer-minutes (the sum of the per-minute viewers). */
  cdn_watch_minutes: number;
  /** The minute with the most viewers (the earliest of equals); null without viewers. */
  cdn_peak_minute: Date | null;
  cdn_peak: number | null;
}

export const NOTHING_COUNTED: Audience = {
  player_minutes: 0,
  watched_seconds: 0,
  peak_minute: null,
  peak_watching_seconds: null,
  cdn_has_data: false,
  cdn_watch_minutes: 0,
  cdn_peak_minute: null,
  cdn_peak: null,
};

/** `Audience` as a one-row query's text (no row: nothing counted), to run inside a stream's read (`streamId`: an expression). */
export const audienceSql = (streamId: string): string => `
  select player_minutes, watched_seconds, peak_minute, peak_watching_seconds, cdn_has_data, cdn_watch_minutes, cdn_peak_minute, cdn_peak
  from stream_audience where stream_id = ${streamId}`;

export const AUDIENCE_DATES = ['peak_minute', 'cdn_peak_minute'] as const;

export interface DayWatchMinutes {
  /** The UTC day, `YYYY-MM-DD`. */
  day: string;
  watch_minutes: number;
}

const utcDay = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * Minutes watched per UTC day on an account's streams, every day from `fromDay` to `toDay`
 * (both included, by their UTC dates; days without viewing are 0), oldest first. Per stream: the
 * CDN log's viewer-minutes when the stream has any (they count every player, exactly), else the
 * hosted player's watched minutes. Each day's sum is rounded to a whole minute.
 */
export async function watchMinutesByDay(
  db: Db,
  accountId: string,
  fromDay: Date,
  toDay: Date,
): Promise<DayWatchMinutes[]> {
  const from = utcDay(fromDay);
  const to = utcDay(toDay);
  const rows = await db<DayWatchMinutes[]>`
    with days as (
      select d::date as day from generate_series(${from}::date, ${to}::date, interval '1 day') d
    ), bounds as (
      select ${from}::date::timestamp at time zone 'UTC' as first, (${to}::date + 1)::timestamp at time zone 'UTC' as past
    ), account_streams as (
      select id from streams where account_id = ${accountId}
    ), cdn_streams as (
      select stream_id from cdn_viewer_minutes where stream_id in (select id from account_streams)
      union
      select stream_id from cdn_viewer_ids where stream_id in (select id from account_streams)
    ), watched as (
      select minute, viewers::float8 as minutes from cdn_viewer_minutes where stream_id in (select id from account_streams)
      union all
      select minute, count(*)::float8 from cdn_viewer_ids where stream_id in (select id from account_streams) group by stream_id, minute
      union all
      select minute, watched_seconds / 60 from viewer_minutes
      where stream_id in (select id from account_streams) and stream_id not in (select stream_id from cdn_streams)
    )
    select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(round(sum(w.minutes)), 0)::bigint as watch_minutes
    from days
    left join (select w.* from watched w, bounds b where w.minute >= b.first and w.minute < b.past) w
      on (w.minute at time zone 'UTC')::date = days.day
    group by days.day order by days.day`;
  return rows.map((r) => ({ day: r.day, watch_minutes: r.watch_minutes }));
}

/** One node's figures of one stream (`viewer_node_figures`). */
export interface NodeFiguresRow {
  stream_id: string;
  now: NowEstimate | null;
  pending_watched_seconds: number;
  largest_address_seconds: number;
}

/**
 * Replaces `node`'s rows with `rows` (its streams are few: the ones it counts now) and deletes
 * every node's rows older than `deadBefore` (nodes gone).
 */
export async function writeNodeFigures(
  db: Db,
  node: string,
  rows: NodeFiguresRow[],
  now: Date,
  deadBefore: Date,
): Promise<void> {
  const ids = rows.map((r) => r.stream_id);
  await db`
    with gone as (
      delete from viewer_node_figures
      -- Disjoint from the rows inserted below: a statement may not touch one row twice.
      where (node = ${node} and stream_id <> all(${ids}::text[])) or (node <> ${node} and updated_at < ${deadBefore})
    )
    insert into viewer_node_figures (node, stream_id, now, pending_watched_seconds, largest_address_seconds, updated_at)
    select ${node}, r.stream_id, r.now::jsonb, r.pending, r.largest, ${now} from unnest(
      ${ids}::text[],
      ${rows.map((r) => (r.now === null ? null : JSON.stringify(r.now)))}::text[],
      ${rows.map((r) => r.pending_watched_seconds)}::float8[],
      ${rows.map((r) => r.largest_address_seconds)}::float8[]
    ) as r (stream_id, now, pending, largest)
    on conflict (node, stream_id) do update set
      now = excluded.now,
      pending_watched_seconds = excluded.pending_watched_seconds,
      largest_address_seconds = excluded.largest_address_seconds,
      updated_at = excluded.updated_at`;
}

/** Every other node's rows written since `freshAfter`. */
export async function otherNodesFigures(db: Db, node: string, freshAfter: Date): Promise<NodeFiguresRow[]> {
  return db<NodeFiguresRow[]>`
    select stream_id, now, pending_watched_seconds, largest_address_seconds from viewer_node_figures
    where node <> ${node} and updated_at > ${freshAfter}`;
}
