import type { Db } from '../../../platform/db/connect.js';

export interface ViewerSessionRow {
  id: string;
  stream_id: string;
  account_id: string;
  viewer_id: string;
  name: string | null;
  role: 'viewer' | 'moderator';
  key_id: string;
  created_at: Date;
  expires_at: Date;
  access_until: Date;
}

export async function insertSession(db: Db, row: ViewerSessionRow): Promise<void> {
  await db`insert into viewer_sessions ${db(row)}`;
}

/** Deletes up to `batch` sessions that ended before `before`; returns how many. */
export async function purgeSessions(db: Db, before: Date, batch: number): Promise<number> {
  const { count } = await db`
    delete from viewer_sessions where id in (
      select id from viewer_sessions where expires_at < ${before} limit ${batch})`;
  return count;
}
