import type { Db } from '../../../platform/db/connect.js';

/** A new still of the stream is on the CDN (the stream's `thumbnail.captured_at`). */
export async function recordCapture(db: Db, streamId: string, at: Date): Promise<void> {
  await db`update streams set thumbnail_at = ${at} where id = ${streamId}`;
}

/** Which of these streams have ended (their still is final). */
export async function endedAmong(db: Db, streamIds: string[]): Promise<string[]> {
  const rows = await db<{ id: string }[]>`select id from streams where id = any(${streamIds}) and status = 'ended'`;
  return rows.map((r) => r.id);
}
