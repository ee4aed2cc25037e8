import type { Db } from '../../../platform/db/connect.js';
import { MODERATOR_ID } from './schemas.js';

export interface ModeratorRow {
  id: string;
  /** One of the two is set: the stream it moderates, or the channel whose every stream it moderates. */
  stream_id: string | null;
  channel_id: string | null;
  viewer_id: string;
  name: string | null;
  source: 'token' | 'invitation';
  active_until: Date;
  removed_at: Date | null;
  created_at: Date;
}

/**
 * A moderator-role sign-in: the viewer moderates until `activeUntil` (later of this and what they
 * had, so an invitation is never shortened). A moderator the owner removed stays removed: null then.
 */
export async function signInModerator(db: Db, row: Omit<ModeratorRow, 'removed_at'>): Promise<ModeratorRow | null> {
  const [moderator] = await db<ModeratorRow[]>`
    insert into moderators ${db(row)}
    on conflict (scope_id, viewer_id) do update set
      active_until = greatest(moderators.active_until, excluded.active_until),
      -- An invitation's name is the owner's choice; a token moderator takes its newest token's.
      name = case when moderators.source = 'invitation' then moderators.name else coalesce(excluded.name, moderators.name) end
      where moderators.removed_at is null
    returning *`;
  return moderator ?? null;
}

/**
 * The owner's invitation: a new moderator, or the one with this viewer id invited again (its
 * removal undone, active for the new period from now, an invitation from then on).
 */
export async function inviteModerator(db: Db, row: Omit<ModeratorRow, 'removed_at' | 'source'>): Promise<ModeratorRow> {
  const [moderator] = await db<ModeratorRow[]>`
    insert into moderators ${db({ ...row, source: 'invitation', removed_at: null })}
    on conflict (scope_id, viewer_id) do update set
      name = excluded.name, source = 'invitation', active_until = excluded.active_until, removed_at = null
    returning *`;
  return moderator as ModeratorRow;
}

export async function findModerator(db: Db, id: string): Promise<ModeratorRow | null> {
  const [row] = await db<ModeratorRow[]>`select * from moderators where id = ${id}`;
  return row ?? null;
}

/** The viewer's moderator records on any of `scopes` (a stream and its channel), removed or not, expired or not. */
export async function findModeratorsOf(db: Db, scopes: string[], viewerId: string): Promise<ModeratorRow[]> {
  return db<ModeratorRow[]>`select * from moderators where scope_id = any(${scopes}) and viewer_id = ${viewerId}`;
}

/** Newest first, removed ones left out; `startingAfter` is the id of the last one of the previous page. */
export async function listModerators(
  db: Db,
  scopeId: string,
  limit: number,
  startingAfter: string | undefined,
): Promise<ModeratorRow[]> {
  const after = startingAfter
    ? db`and (created_at, id) < (select created_at, id from moderators where scope_id = ${scopeId} and id = ${startingAfter})`
    : db``;
  return db<ModeratorRow[]>`
    select * from moderators where scope_id = ${scopeId} and removed_at is null ${after}
    order by created_at desc, id desc limit ${limit}`;
}

/** Kept, marked removed: later moderator-role tokens do not bring it back. Null: no such moderator (or removed already). */
export async function removeModerator(db: Db, scopeId: string, id: string, at: Date): Promise<ModeratorRow | null> {
  if (!MODERATOR_ID.test(id)) return null;
  const [row] = await db<ModeratorRow[]>`
    update moderators set removed_at = ${at} where scope_id = ${scopeId} and id = ${id} and removed_at is null returning *`;
  return row ?? null;
}
