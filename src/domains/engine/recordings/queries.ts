import type { Db } from '../../../platform/db/connect.js';
import type { StreamRow } from '../../streams/model.js';

/** Ids of recordings to make (or to delete before they exist), due now. */
export async function dueRecordings(db: Db, now: Date, settleBefore: Date, batch: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from streams
    where recording_status in ('processing', 'deleting') and status <> 'live'
      and (recording_next_attempt_at is null or recording_next_attempt_at <= ${now})
      and (ended_at is null or ended_at <= ${settleBefore})
    order by recording_next_attempt_at nulls first limit ${batch}`;
  return rows.map((r) => r.id);
}

/** Pushes the next attempt out while this node works on it; the outcome sets it properly. */
export async function claim(db: Db, id: string, until: Date): Promise<void> {
  await db`update streams set recording_next_attempt_at = ${until} where id = ${id}`;
}

/** Ready recordings whose retention (or zero-balance) date passed, locked for this run. */
export async function lockExpired(db: Db, now: Date, batch: number): Promise<StreamRow[]> {
  return db<StreamRow[]>`
    select * from streams where recording_status = 'ready' and recording_delete_at <= ${now}
    order by recording_delete_at limit ${batch} for update skip locked`;
}

export async function scheduleRetry(db: Db, id: string, attempts: number, next: Date, error: string): Promise<void> {
  await db`update streams set recording_attempts = ${attempts}, recording_next_attempt_at = ${next}, recording_error = ${error} where id = ${id}`;
}
