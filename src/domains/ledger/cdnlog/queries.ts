import type { Db } from '../../../platform/db/connect.js';
import { runComposed } from '../../../platform/db/embed.js';
import type { DeliveryRow, ViewerRow } from './aggregate.js';

/** Where the reading of one CDN log stands (a row of `cdn_log_position` per source). */
export interface ReaderPosition {
  /** `<dev>:<inode>` of the file being read; null before the first file. */
  file_id: string | null;
  byte_offset: number;
  counted_until: Date | null;
}

export const START: ReaderPosition = { file_id: null, byte_offset: 0, counted_until: null };

/** The source of the origin's own nginx log; an edge's log is the edge's id (docs/decisions.md, "Edge tier"). */
export const ORIGIN_SOURCE = 'origin';

/** A source's position, created at the start of its log (counted from `countedFrom`) when there is none yet. */
export async function readPosition(
  db: Db,
  source: string,
  now: Date,
  countedFrom: Date | null = null,
): Promise<ReaderPosition> {
  await db`insert into cdn_log_position (source, counted_until, updated_at) values (${source}, ${countedFrom}, ${now}) on conflict (source) do nothing`;
  const [row] = await db<
    ReaderPosition[]
  >`select file_id, byte_offset, counted_until from cdn_log_position where source = ${source}`;
  return row ?? START;
}

/**
 * Moves a source's position from `from` to `to`; false (nothing written) when the row is no longer
 * at `from`: another reader moved it meanwhile (or this batch was sent before), and it must not
 * count again.
 */
export async function movePosition(
  db: Db,
  source: string,
  from: Pick<ReaderPosition, 'file_id' | 'byte_offset'>,
  to: ReaderPosition,
  now: Date,
): Promise<boolean> {
  const rows = await db`
    update cdn_log_position set file_id = ${to.file_id}, byte_offset = ${to.byte_offset},
      counted_until = greatest(counted_until, ${to.counted_until}), updated_at = ${now}
    where source = ${source} and retired_at is null
      and file_id is not distinct from ${from.file_id} and byte_offset = ${from.byte_offset}
    returning 1`;
  return rows.length === 1;
}

/** A source's log no longer holds counting back (a removed edge); its position stays on record. */
export async function retireSource(db: Db, source: string, now: Date): Promise<void> {
  await db`update cdn_log_position set retired_at = ${now} where source = ${source} and retired_at is null`;
}

/**
 * Locks the audience rows (`lock_stream_audience`, migration 014) of the streams a batch writes
 * and of those whose viewer ids the compaction up to `horizon` moves, all in one statement: the
 * triggers of the batch's statements lock them again set by set, which alone could deadlock with
 * a node flushing viewer minutes of the same streams.
 */
export async function lockAudiences(db: Db, streamIds: string[], horizon: Date | null): Promise<void> {
  await db`select lock_stream_audience(array(
    select unnest(${streamIds}::text[])
    ${horizon ? db`union select stream_id from cdn_viewer_ids where minute <= ${horizon}` : db``}))`;
}

/** Adds bytes into `delivery_minutes`; rows of streams that do not exist (deleted) are skipped. */
export async function addDelivery(db: Db, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db`
    insert into delivery_minutes (stream_id, minute, bytes)
    select r.* from unnest(${rows.map((r) => r.stream_id)}::text[], ${rows.map((r) => r.minute.toISOString())}::timestamptz[], ${rows.map((r) => r.bytes)}::bigint[])
      as r (stream_id, minute, bytes)
    where exists (select 1 from streams s where s.id = r.stream_id)
    on conflict (stream_id, minute) do update set bytes = delivery_minutes.bytes + excluded.bytes`;
}

/** Records each viewer of a stream's minute once (a viewer already seen in the minute stays as it was). */
export async function addViewerIds(db: Db, rows: ViewerRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db`
    insert into cdn_viewer_ids (stream_id, minute, viewer, country)
    select r.* from unnest(
      ${rows.map((r) => r.stream_id)}::text[], ${rows.map((r) => r.minute.toISOString())}::timestamptz[],
      ${rows.map((r) => r.viewer)}::text[], ${rows.map((r) => r.country)}::text[]
    ) as r (stream_id, minute, viewer, country)
    where exists (select 1 from streams s where s.id = r.stream_id)
    on conflict do nothing`;
}

/**
 * Minutes starting at or before `horizon` are past: their viewer ids become counts per minute
 * and viewer-minutes per country, and the ids are deleted.
 */
export async function compactViewers(db: Db, horizon: Date): Promise<void> {
  await db`
    with gone as (
      delete from cdn_viewer_ids where minute <= ${horizon} returning stream_id, minute, country
    ), minutes as (
      insert into cdn_viewer_minutes (stream_id, minute, viewers)
      select stream_id, minute, count(*) from gone group by stream_id, minute
      on conflict (stream_id, minute) do update set viewers = cdn_viewer_minutes.viewers + excluded.viewers
    )
    insert into cdn_countries (stream_id, country, viewer_minutes)
    select stream_id, country, count(*) from gone group by stream_id, country
    on conflict (stream_id, country) do update set viewer_minutes = cdn_countries.viewer_minutes + excluded.viewer_minutes`;
}

/**
 * A source silent this long (an edge that is down) stops holding counting back: its lines are
 * still counted when it returns, after the figures that did not wait for them (docs/decisions.md,
 * "Edge tier").
 */
export const SOURCE_HOLD_MINUTES = 60;

/**
 * `counted_until` as a one-row query's text, to run alone or inside another read (`runComposed`):
 * as far as the slowest log still counted (the origin's and every edge's not retired and not
 * silent for an hour); null while a source has never been read.
 */
export const COUNTED_UNTIL_SQL = `select case when bool_or(counted_until is null) then null else min(counted_until) end as counted_until
  from cdn_log_position
  where retired_at is null and (source = '${ORIGIN_SOURCE}' or updated_at > now() - interval '${SOURCE_HOLD_MINUTES} minutes')`;

/** The log time before which every CDN log line has been read (every source); null before the first read. */
export async function countedUntil(db: Db): Promise<Date | null> {
  const [row] = await runComposed<{ counted_until: Date | null }>(db, COUNTED_UNTIL_SQL, []);
  return row?.counted_until ?? null;
}

/** Bytes delivered for one stream (playlists, segments and recording downloads), as read so far. */
export async function deliveredBytes(db: Db, streamId: string): Promise<number> {
  const [row] = await db<
    { bytes: number }[]
  >`select coalesce(sum(bytes), 0)::bigint as bytes from delivery_minutes where stream_id = ${streamId}`;
  return row?.bytes ?? 0;
}

export interface CdnMinute {
  minute: Date;
  viewers: number;
}

/** Distinct viewers per minute of a stream, oldest first: minutes that ended by `until` only. */
export async function cdnMinutes(db: Db, streamId: string, until: Date): Promise<CdnMinute[]> {
  return db<CdnMinute[]>`
    select minute, sum(viewers)::int as viewers from (
      select minute, viewers from cdn_viewer_minutes where stream_id = ${streamId}
      union all
      select minute, count(*)::int from cdn_viewer_ids where stream_id = ${streamId} group by minute
    ) m
    where minute + interval '1 minute' <= ${until}
    group by minute order by minute`;
}

export interface CdnCountry {
  country: string;
  /** Viewer-minutes watched from the country. */
  watch_minutes: number;
  /** Viewer-minutes of the stream, every country. */
  total: number;
}

/** Watch time per country of a stream, largest first (then by code), at most `limit`. */
export async function cdnCountries(db: Db, streamId: string, limit: number): Promise<CdnCountry[]> {
  return db<CdnCountry[]>`
    select country, sum(n)::bigint as watch_minutes, sum(sum(n)) over ()::bigint as total from (
      select country, viewer_minutes as n from cdn_countries where stream_id = ${streamId}
      union all
      select country, count(*) from cdn_viewer_ids where stream_id = ${streamId} group by country
    ) c
    group by country order by watch_minutes desc, country limit ${limit}`;
}

/** An imported CDN log file (`cdn_log_imports`, migration 021). */
export interface ImportRecord {
  digest: string;
  source: string;
  file_name: string;
  lines: number;
  skipped: number;
  delivered_bytes: number;
  first_time: Date | null;
  last_time: Date | null;
  imported_at: Date;
}

/**
 * Records a file as imported; null when it is new (the caller adds what it counts in the same
 * transaction), else the record of its first import (nothing is written: a file counts once).
 */
export async function recordImport(db: Db, r: ImportRecord): Promise<ImportRecord | null> {
  const inserted = await db`
    insert into cdn_log_imports (digest, source, file_name, lines, skipped, delivered_bytes, first_time, last_time, imported_at)
    values (${r.digest}, ${r.source}, ${r.file_name}, ${r.lines}, ${r.skipped}, ${r.delivered_bytes}, ${r.first_time}, ${r.last_time}, ${r.imported_at})
    on conflict (digest) do nothing
    returning 1`;
  if (inserted.length === 1) return null;
  const [row] = await db<ImportRecord[]>`
    select digest, source, file_name, lines::int, skipped::int, delivered_bytes::bigint as delivered_bytes, first_time, last_time, imported_at
    from cdn_log_imports where digest = ${r.digest}`;
  return row ?? null;
}
