import type { Db } from '../../../platform/db/connect.js';
import { LOCKS } from '../../../platform/db/locks.js';
import type { IngestMeasurement, StreamRow } from '../../streams/model.js';

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
export async function saveIngest(
  db: Db,
  streamId: string,
  measurement: IngestMeasurement,
  warningSince: Date | null,
  sampleAt: Date | null,
): Promise<void> {
  const m = measurement;
  // One statement: the sample is kept only while the stream is still live, like the measurement.
  await db`
    with saved as (
      update streams set ingest = ${db.json(m as never)}, limit_warning_since = ${warningSince}
      where id = ${streamId} and status = 'live' returning id
    )
    insert into ingest_samples (stream_id, at, kbps, width, height, keyframe_interval_seconds, limit_warning, keyframe_warning)
    select id, ${sampleAt}, ${m.kbps}, ${m.width}, ${m.height}, ${m.keyframe_interval_seconds}, ${m.limit_warning}, ${m.keyframe_warning}
    from saved where ${sampleAt !== null}
    on conflict do nothing`;
}

/** One stored ingest measurement of the series (`ingest_samples`). */
export interface IngestSample {
  at: Date;
  kbps: number | null;
  width: number | null;
  height: number | null;
  keyframe_interval_seconds: number | null;
  limit_warning: IngestMeasurement['limit_warning'];
  keyframe_warning: boolean;
}

/** A stream's ingest series, oldest first. */
export async function ingestSamples(db: Db, streamId: string): Promise<IngestSample[]> {
  return db<IngestSample[]>`
    select at, kbps, width, height, keyframe_interval_seconds, limit_warning, keyframe_warning
    from ingest_samples where stream_id = ${streamId} order by at`;
}

/** Deletes up to `batch` samples taken before `before`; returns how many went. */
export async function purgeIngestSamples(db: Db, before: Date, batch: number): Promise<number> {
  const { count } = await db`
    delete from ingest_samples where (stream_id, at) in (
      select stream_id, at from ingest_samples where at < ${before} limit ${batch})`;
  return count;
}

/** The renditions the first ladder of a broadcast made; later sessions keep them. */
export async function saveRenditions(db: Db, streamId: string, renditions: string[]): Promise<void> {
  await db`update streams set renditions = ${renditions} where id = ${streamId} and renditions is null`;
}

/** The ladder grew with its source (LiveWorker.followSource): the stream lists its new renditions. */
export async function growRenditions(db: Db, streamId: string, renditions: string[]): Promise<void> {
  await db`update streams set renditions = ${renditions} where id = ${streamId}`;
}
