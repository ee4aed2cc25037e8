import type { Db } from '../../platform/db/connect.js';
import type { StreamRow } from '../streams/queries.js';

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
