import type { Db } from '../../platform/db/connect.js';

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

export interface ModeratorRow {
  id: string;
  stream_id: string;
  viewer_id: string;
  name: string | null;
  source: 'token' | 'invitation';
  active_until: Date;
  removed_at: Date | null;
  created_at: Date;
}

/**
 * A moderator-role sign-in: the viewer moderates until `activeUntil` (later of this and what they
 * had). A moderator the owner removed stays removed: null then.
 */
export async function signInModerator(db: Db, row: Omit<ModeratorRow, 'removed_at'>): Promise<ModeratorRow | null> {
  const [moderator] = await db<ModeratorRow[]>`
    insert into moderators ${db(row)}
    on conflict (stream_id, viewer_id) do update set
      active_until = greatest(moderators.active_until, excluded.active_until),
      name = coalesce(excluded.name, moderators.name)
      where moderators.removed_at is null
    returning *`;
  return moderator ?? null;
}

/** The moderator of the stream with this viewer id, unless removed or past `active_until`. */
export async function activeModerator(db: Db, streamId: string, viewerId: string, now: Date): Promise<ModeratorRow | null> {
  const [row] = await db<ModeratorRow[]>`
    select * from moderators where stream_id = ${streamId} and viewer_id = ${viewerId} and removed_at is null and active_until > ${now}`;
  return row ?? null;
}
