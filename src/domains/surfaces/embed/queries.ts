import type { Db } from '../../../platform/db/connect.js';
import type { StreamRow } from '../../streams/model.js';

/**
 * The stream a channel page shows, of any account: the live one, else the next pending one (the
 * oldest), else the latest ended one; null for an unknown channel, `stream_id` null for a channel
 * without any.
 */
export async function findChannelStream(
  db: Db,
  channelId: string,
): Promise<{ name: string | null; stream_id: string | null } | null> {
  const [row] = await db<{ name: string | null; stream_id: string | null }[]>`
    select c.name, (
      select s.id from streams s
      where s.channel_id = c.id and s.status in ('live', 'pending', 'ended')
      order by case s.status when 'live' then 0 when 'pending' then 1 else 2 end,
        case when s.status = 'pending' then s.seq end asc,
        case when s.status = 'live' then s.went_live_at end desc,
        s.ended_at desc nulls last, s.seq desc
      limit 1
    ) as stream_id
    from channels c where c.id = ${channelId}`;
  return row ?? null;
}

/** Any account's stream: the public side names streams by id alone. */
export async function findPublicStream(db: Db, id: string): Promise<StreamRow | null> {
  const [row] = await db<StreamRow[]>`select * from streams where id = ${id}`;
  return row ?? null;
}
