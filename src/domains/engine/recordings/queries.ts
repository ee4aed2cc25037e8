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

/** Streams whose replay is asked for and not made yet, with a ready recording (docs/decisions.md, "Replays (issue 33)"). */
export async function dueReplays(db: Db, maxAttempts: number, batch: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from streams
    where replay and recording_status = 'ready' and replay_made_at is null and replay_attempts < ${maxAttempts}
    order by recording_ready_at limit ${batch}`;
  return rows.map((r) => r.id);
}

/** `madeAt` null: a failed try, counted. */
export async function replayOutcome(db: Db, id: string, madeAt: Date | null): Promise<void> {
  if (madeAt) await db`update streams set replay_made_at = ${madeAt} where id = ${id}`;
  else await db`update streams set replay_attempts = replay_attempts + 1 where id = ${id}`;
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

/** Objects under these prefixes are to go from the bucket (the storage-deletions job does it). */
export async function queueDeletions(db: Db, prefixes: string[], now: Date): Promise<void> {
  for (const prefix of prefixes)
    await db`insert into storage_deletions (prefix, requested_at, next_attempt_at)
      values (${prefix}, ${now}, ${now}) on conflict (prefix) do update set next_attempt_at = ${now}`;
}

export async function dueDeletions(db: Db, now: Date, batch: number): Promise<{ prefix: string; attempts: number }[]> {
  return db<{ prefix: string; attempts: number }[]>`
    select prefix, attempts from storage_deletions where next_attempt_at <= ${now}
    order by next_attempt_at limit ${batch}`;
}

/** Done, unless it was asked again meanwhile (a newer request moved next_attempt_at past `started`). */
export async function deletionDone(db: Db, prefix: string, started: Date): Promise<void> {
  await db`delete from storage_deletions where prefix = ${prefix} and next_attempt_at <= ${started}`;
}

export async function deletionFailed(
  db: Db,
  prefix: string,
  attempts: number,
  next: Date,
  error: string,
): Promise<void> {
  await db`update storage_deletions set attempts = ${attempts}, next_attempt_at = ${next}, last_error = ${error}
    where prefix = ${prefix}`;
}

/** Deletions not yet done, for status and metrics. */
export async function pendingDeletions(db: Db): Promise<number> {
  const [row] = await db<{ n: number }[]>`select count(*)::int as n from storage_deletions`;
  return row?.n ?? 0;
}
