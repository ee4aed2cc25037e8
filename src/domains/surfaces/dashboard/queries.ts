import type { Db } from '../../../platform/db/connect.js';
import type { StreamRow } from '../../streams/model.js';
import type { OutputStatus } from '../../engine/outputs/schemas.js';

export interface AccessRow {
  generation: number;
  rotated_at: Date | null;
}

export async function currentAccess(db: Db): Promise<AccessRow> {
  const [row] = await db<AccessRow[]>`select generation, rotated_at from dashboard_access`;
  if (!row) throw new Error('dashboard_access has no row: migration 012 did not run');
  return row;
}

/** The next generation: the token before stops working. */
export async function rotateAccess(db: Db, now: Date): Promise<AccessRow> {
  const [row] = await db<
    AccessRow[]
  >`update dashboard_access set generation = generation + 1, rotated_at = ${now} returning generation, rotated_at`;
  if (!row) throw new Error('dashboard_access has no row: migration 012 did not run');
  return row;
}

export type StreamWithAccount = StreamRow & { account_name: string };

/** Every live stream, then the latest `recent` others, of every account; newest first within each. */
export async function liveAndRecentStreams(db: Db, recent: number): Promise<StreamWithAccount[]> {
  return db<StreamWithAccount[]>`
    select s.*, a.name as account_name from (
      (select * from streams where status = 'live' order by went_live_at)
      union all
      (select * from streams where status <> 'live' order by seq desc limit ${recent})
    ) s join accounts a on a.id = s.account_id
    order by s.status = 'live' desc, s.seq desc`;
}

/** An output as the dashboard reads it: every column but `stream_key`, which is never read here. */
export interface DashboardOutputRow {
  id: string;
  stream_id: string;
  name: string | null;
  url: string;
  enabled: boolean;
  status: OutputStatus;
  last_error: string | null;
  connected_at: Date | null;
  bytes_sent: number;
}

/** The restreaming outputs of these streams, all in one query, in the order each stream's were made. */
export async function outputsOfStreams(db: Db, streamIds: string[]): Promise<DashboardOutputRow[]> {
  if (!streamIds.length) return [];
  return db<DashboardOutputRow[]>`
    select id, stream_id, name, url, enabled, status, last_error, connected_at, bytes_sent
    from stream_outputs where stream_id = any(${streamIds}) order by stream_id, seq`;
}

export interface RecordingRow {
  stream_id: string;
  stream_name: string | null;
  account_id: string;
  status: string;
  bytes: number | null;
  duration_seconds: number | null;
  ready_at: Date | null;
  delete_at: Date | null;
}

/** The latest recordings, every account's (made, being made, failed or deleted), newest first. */
export async function latestRecordings(db: Db, limit: number): Promise<RecordingRow[]> {
  return db<RecordingRow[]>`
    select id as stream_id, name as stream_name, account_id, recording_status as status, recording_bytes as bytes,
      recording_duration_seconds as duration_seconds, recording_ready_at as ready_at, recording_delete_at as delete_at
    from streams
    where ended_at is not null and recording_status is not null and recording_status not in ('none', 'not_recorded')
    order by ended_at desc limit ${limit}`;
}

export interface EndpointHealthRow {
  id: string;
  account_id: string;
  url: string;
  enabled: boolean;
  succeeded: number;
  failed: number;
  retrying: number;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
}

/**
 * Every account's webhook endpoints with their deliveries since `since` by outcome and their last
 * attempt; failing ones first, then newest.
 */
export async function endpointHealth(db: Db, since: Date, limit: number): Promise<EndpointHealthRow[]> {
  return db<EndpointHealthRow[]>`
    select e.id, e.account_id, e.url, e.enabled,
      coalesce(d.succeeded, 0)::int as succeeded, coalesce(d.failed, 0)::int as failed, coalesce(d.retrying, 0)::int as retrying,
      l.last_attempt_at, l.last_status_code, l.last_error
    from webhook_endpoints e
    left join lateral (
      select count(*) filter (where status = 'succeeded') as succeeded,
        count(*) filter (where status = 'failed') as failed,
        count(*) filter (where status = 'pending' and attempts > 0) as retrying
      from webhook_deliveries where endpoint_id = e.id and created_at >= ${since}
    ) d on true
    left join lateral (
      select last_attempt_at, last_status_code, last_error from webhook_deliveries
      where endpoint_id = e.id and last_attempt_at is not null order by seq desc limit 1
    ) l on true
    order by (coalesce(d.failed, 0) + coalesce(d.retrying, 0) > 0) desc, e.seq desc
    limit ${limit}`;
}

/** A stream of any account by id; null when there is none. */
export async function streamStatus(db: Db, id: string): Promise<StreamRow['status'] | null> {
  const [row] = await db<{ status: StreamRow['status'] }[]>`select status from streams where id = ${id}`;
  return row?.status ?? null;
}
