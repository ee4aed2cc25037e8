import type { Db } from '../../../platform/db/connect.js';
import type { AttendanceRow } from './recorder.js';

export interface StoredAttendance {
  viewer_id: string;
  name: string | null;
  watch_seconds: number;
  first_seen_at: Date;
  last_seen_at: Date;
}

/**
 * Adds each row into its viewer's row, in one statement: seconds add up, first and last
 * sightings widen, the name is the newest non-null one. Additive, so nodes need no lock. Rows of
 * streams deleted meanwhile are skipped (they would break the whole batch). At most one row per
 * (stream, viewer) in `rows` (`mergeAttendance`).
 */
export async function addAttendance(db: Db, rows: AttendanceRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await db`
    insert into attendance (stream_id, viewer_id, name, watch_seconds, first_seen_at, last_seen_at)
    select r.* from unnest(
      ${rows.map((r) => r.stream_id)}::text[],
      ${rows.map((r) => r.viewer_id)}::text[],
      ${rows.map((r) => r.name)}::text[],
      ${rows.map((r) => r.watch_seconds)}::int[],
      ${rows.map((r) => r.first_seen_at.toISOString())}::timestamptz[],
      ${rows.map((r) => r.last_seen_at.toISOString())}::timestamptz[]
    ) as r (stream_id, viewer_id, name, watch_seconds, first_seen_at, last_seen_at)
    where exists (select 1 from streams s where s.id = r.stream_id)
    on conflict (stream_id, viewer_id) do update set
      watch_seconds = attendance.watch_seconds + excluded.watch_seconds,
      first_seen_at = least(attendance.first_seen_at, excluded.first_seen_at),
      last_seen_at = greatest(attendance.last_seen_at, excluded.last_seen_at),
      name = case when excluded.last_seen_at >= attendance.last_seen_at
        then coalesce(excluded.name, attendance.name) else coalesce(attendance.name, excluded.name) end`;
  return result.count;
}

/**
 * One page of a stream's attendance after `after` in byte order of `viewer_id` (its collation
 * is "C"), and the stream's total, from the same snapshot.
 */
export async function listAttendance(
  db: Db,
  streamId: string,
  opts: { limit: number; after: string | null },
): Promise<{ rows: StoredAttendance[]; total: number }> {
  const result = await db<(Partial<StoredAttendance> & { total: number })[]>`
    select p.*, t.total
    from (select count(*)::int as total from attendance where stream_id = ${streamId}) t
    left join lateral (
      select viewer_id, name, watch_seconds, first_seen_at, last_seen_at from attendance
      where stream_id = ${streamId} ${opts.after === null ? db`` : db`and viewer_id > ${opts.after}`}
      order by viewer_id limit ${opts.limit}
    ) p on true
    order by p.viewer_id`;
  return page(result);
}

/**
 * One page of a channel's attendance: per viewer, across the channel's streams, seconds summed,
 * first sighting the earliest, last the latest, name the one of their latest stream that has one.
 * Same order, paging and total as a stream's.
 */
export async function listChannelAttendance(
  db: Db,
  channelId: string,
  opts: { limit: number; after: string | null },
): Promise<{ rows: StoredAttendance[]; total: number }> {
  const rows = db`
    select a.* from attendance a join streams s on s.id = a.stream_id where s.channel_id = ${channelId}`;
  const result = await db<(Partial<StoredAttendance> & { total: number })[]>`
    with r as (${rows})
    select p.*, t.total
    from (select count(distinct viewer_id)::int as total from r) t
    left join lateral (
      select viewer_id,
        (array_agg(name order by last_seen_at desc) filter (where name is not null))[1] as name,
        sum(watch_seconds) as watch_seconds, min(first_seen_at) as first_seen_at, max(last_seen_at) as last_seen_at
      from r ${opts.after === null ? db`` : db`where viewer_id > ${opts.after}`}
      group by viewer_id order by viewer_id limit ${opts.limit}
    ) p on true
    order by p.viewer_id`;
  return page(result);
}

function page(result: (Partial<StoredAttendance> & { total: number })[]): { rows: StoredAttendance[]; total: number } {
  const total = result[0]?.total ?? 0;
  const rows: StoredAttendance[] = [];
  for (const r of result) {
    // An empty page is one row of nulls beside the total.
    if (r.viewer_id == null) continue;
    rows.push({
      viewer_id: r.viewer_id,
      name: r.name ?? null,
      watch_seconds: r.watch_seconds as number,
      first_seen_at: r.first_seen_at as Date,
      last_seen_at: r.last_seen_at as Date,
    });
  }
  return { rows, total };
}
