import type { Db } from '../../platform/db/connect.js';
import { LOCKS } from '../../platform/db/locks.js';
import type { IngestMeasurement, StreamRow } from '../streams/queries.js';

export async function countLive(db: Db, accountId: string, exceptId: string): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from streams where account_id = ${accountId} and status = 'live' and id <> ${exceptId}`;
  return row?.n ?? 0;
}

export async function liveStreams(db: Db): Promise<StreamRow[]> {
  return db<StreamRow[]>`select * from streams where status = 'live' order by went_live_at`;
}

/** Live streams whose publisher left before `cutoff`, locked for this run. */
export async function lockDisconnected(db: Db, cutoff: Date): Promise<StreamRow[]> {
  return db<StreamRow[]>`
    select * from streams
    where status = 'live' and publisher_client_id is null and publisher_left_at <= ${cutoff}
    for update skip locked`;
}

/** Live streams past their maximum duration, locked for this run. */
export async function lockOverDuration(db: Db, now: Date): Promise<StreamRow[]> {
  return db<StreamRow[]>`
    select * from streams
    where status = 'live' and went_live_at + make_interval(secs => max_duration_seconds) <= ${now}
    for update skip locked`;
}

/** Serialises admissions that compare against the machine's capacity, until the transaction ends. */
export async function lockCapacity(db: Db): Promise<void> {
  await db`select pg_advisory_xact_lock(${LOCKS.capacity})`;
}

/** The latest ingest measurement of a live stream, and since when its limit warning holds. */
export async function saveIngest(db: Db, streamId: string, measurement: IngestMeasurement, warningSince: Date | null): Promise<void> {
  await db`
    update streams set ingest = ${db.json(measurement as never)}, limit_warning_since = ${warningSince}
    where id = ${streamId} and status = 'live'`;
}

/** The renditions the first ladder of a broadcast made; later sessions keep them. */
export async function saveRenditions(db: Db, streamId: string, renditions: string[]): Promise<void> {
  await db`update streams set renditions = ${renditions} where id = ${streamId} and renditions is null`;
}
