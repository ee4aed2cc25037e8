import type { Db } from '../../../platform/db/connect.js';
import { BAN_ID } from './schemas.js';

export interface BanRow {
  id: string;
  /** One of the two is set: the stream it covers, or the channel whose every stream it covers. */
  stream_id: string | null;
  channel_id: string | null;
  viewer_id: string;
  message_id: string | null;
  /** Anonymous bans: the keyed hash of the banned message's network. */
  network: string | null;
  /** 'owner' or the moderator id that made it. */
  created_by: string;
  created_at: Date;
}

/** The ban of `viewerId` on the stream or channel, made now unless one exists; `created` says which. */
export async function insertBan(db: Db, ban: BanRow): Promise<{ row: BanRow; created: boolean }> {
  const [inserted] = await db<BanRow[]>`
    insert into bans ${db(ban)} on conflict (scope_id, viewer_id) do nothing returning *`;
  if (inserted) return { row: inserted, created: true };
  const [existing] = await db<BanRow[]>`
    select * from bans
    where scope_id = ${ban.stream_id ?? ban.channel_id} and viewer_id = ${ban.viewer_id}`;
  return { row: existing as BanRow, created: false };
}

/** Banned on any of `scopes` (a stream and its channel). */
export async function isBanned(db: Db, scopes: string[], viewerId: string): Promise<boolean> {
  const rows = await db`select 1 from bans where scope_id = any(${scopes}) and viewer_id = ${viewerId} limit 1`;
  return rows.length > 0;
}

/** Newest first; `startingAfter` is the id of the last ban of the previous page (unknown: from the start). */
export async function listBans(
  db: Db,
  scopeId: string,
  limit: number,
  startingAfter: string | undefined,
): Promise<BanRow[]> {
  const after = startingAfter
    ? db`and (created_at, id) < (select created_at, id from bans where scope_id = ${scopeId} and id = ${startingAfter})`
    : db``;
  return db<BanRow[]>`
    select * from bans where scope_id = ${scopeId} ${after}
    order by created_at desc, id desc limit ${limit}`;
}

export async function deleteBan(db: Db, scopeId: string, banId: string): Promise<boolean> {
  if (!BAN_ID.test(banId)) return false;
  const rows = await db`delete from bans where scope_id = ${scopeId} and id = ${banId} returning id`;
  return rows.length > 0;
}
