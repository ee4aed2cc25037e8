import type { Db } from '../../../platform/db/connect.js';
import { BAN_ID } from './schemas.js';

export interface BanRow {
  id: string;
  stream_id: string;
  viewer_id: string;
  message_id: string | null;
  /** Anonymous bans: the keyed hash of the banned message's network. */
  network: string | null;
  /** 'owner' or the moderator id that made it. */
  created_by: string;
  created_at: Date;
}

/** The ban of `viewerId` on the stream, made now unless one exists; `created` says which. */
export async function insertBan(db: Db, ban: BanRow): Promise<{ row: BanRow; created: boolean }> {
  const [inserted] = await db<BanRow[]>`
    insert into bans ${db(ban)} on conflict (stream_id, viewer_id) do nothing returning *`;
  if (inserted) return { row: inserted, created: true };
  const [existing] = await db<
    BanRow[]
  >`select * from bans where stream_id = ${ban.stream_id} and viewer_id = ${ban.viewer_id}`;
  return { row: existing as BanRow, created: false };
}

export async function isBanned(db: Db, streamId: string, viewerId: string): Promise<boolean> {
  const rows = await db`select 1 from bans where stream_id = ${streamId} and viewer_id = ${viewerId}`;
  return rows.length > 0;
}

/** Newest first; `startingAfter` is the id of the last ban of the previous page (unknown: from the start). */
export async function listBans(
  db: Db,
  streamId: string,
  limit: number,
  startingAfter: string | undefined,
): Promise<BanRow[]> {
  const after = startingAfter
    ? db`and (created_at, id) < (select created_at, id from bans where stream_id = ${streamId} and id = ${startingAfter})`
    : db``;
  return db<BanRow[]>`
    select * from bans where stream_id = ${streamId} ${after}
    order by created_at desc, id desc limit ${limit}`;
}

export async function deleteBan(db: Db, streamId: string, banId: string): Promise<boolean> {
  if (!BAN_ID.test(banId)) return false;
  const rows = await db`delete from bans where stream_id = ${streamId} and id = ${banId} returning id`;
  return rows.length > 0;
}
