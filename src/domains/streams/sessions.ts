import type { Db } from '../../platform/db/connect.js';

/**
 * Publishing time, what ingest is charged on: a session per admitted publisher. A new publisher
 * closes a session nginx lost track of (the old publisher is gone), so at most one is open.
 */
export async function publisherJoined(tx: Db, streamId: string, at: Date): Promise<void> {
  await publisherGone(tx, streamId, at);
  await tx`insert into publish_sessions (stream_id, started_at) values (${streamId}, ${at}) on conflict do nothing`;
}

/** Closes the open session, if any; never before it started (a clock that stepped back). */
export async function publisherGone(tx: Db, streamId: string, at: Date): Promise<void> {
  await tx`
    update publish_sessions set ended_at = greatest(started_at, ${at}::timestamptz)
    where stream_id = ${streamId} and ended_at is null`;
}
