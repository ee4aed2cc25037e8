import type { Db } from '../../../platform/db/connect.js';
import { runComposed } from '../../../platform/db/embed.js';
import { CHANNEL_ID, type ChatSettings, type PlayerSettings } from '../model.js';

export interface ChannelRow {
  id: string;
  account_id: string;
  name: string | null;
  metadata: Record<string, unknown> | null;
  player: PlayerSettings;
  chat: ChatSettings;
  created_at: Date;
  updated_at: Date;
}

/** A channel as it is presented: the row and its live stream now. */
export type ChannelRead = ChannelRow & { live_stream_id: string | null };

export type ChannelChanges = Partial<Pick<ChannelRow, 'name' | 'metadata' | 'player' | 'chat' | 'updated_at'>>;

const COLUMNS = 'c.id, c.account_id, c.name, c.metadata, c.player, c.chat, c.created_at, c.updated_at';

/** The newest live stream of the channel (at most one is usual; a second publisher's stream is another). */
const LIVE_STREAM = `(select s.id from streams s where s.channel_id = c.id and s.status = 'live'
  order by s.seq desc limit 1) as live_stream_id`;

const json = (db: Db, value: Record<string, unknown> | null) => (value === null ? null : db.json(value as never));

export async function insertChannel(db: Db, row: ChannelRow): Promise<ChannelRow> {
  const [inserted] = await db<ChannelRow[]>`
    insert into channels ${db({ ...row, metadata: json(db, row.metadata), player: db.json(row.player), chat: db.json(row.chat) })}
    returning id, account_id, name, metadata, player, chat, created_at, updated_at`;
  return inserted as ChannelRow;
}

/** Path ids are any text; one that cannot be a channel id names none (and never reaches SQL). */
export async function readChannel(db: Db, accountId: string, id: string): Promise<ChannelRead | null> {
  if (!CHANNEL_ID.test(id)) return null;
  const [row] = await runComposed<ChannelRead>(
    db,
    `select ${COLUMNS}, ${LIVE_STREAM} from channels c where c.id = $1 and c.account_id = $2`,
    [id, accountId],
  );
  return row ?? null;
}

/**
 * The account's channel, locked: `update` against a patch or a deletion, `key share` for a stream
 * created in it (a deletion waits for the creation's commit, then sees its pending stream).
 */
export async function lockChannel(
  db: Db,
  accountId: string,
  id: string,
  mode: 'update' | 'key share',
): Promise<ChannelRow | null> {
  if (!CHANNEL_ID.test(id)) return null;
  const [row] = await runComposed<ChannelRow>(
    db,
    `select ${COLUMNS} from channels c where c.id = $1 and c.account_id = $2 for ${mode}`,
    [id, accountId],
  );
  return row ?? null;
}

/** Newest first by insertion order; `after` is the previous page's last channel (an unknown one gives an empty page). */
export async function listChannels(
  db: Db,
  accountId: string,
  opts: { limit: number; after: string | null },
): Promise<ChannelRead[]> {
  const after = opts.after === null ? '' : 'and c.seq < (select seq from channels where id = $3 and account_id = $1)';
  const params: unknown[] = [accountId, opts.limit];
  if (opts.after !== null) params.push(opts.after);
  return runComposed<ChannelRead>(
    db,
    `select ${COLUMNS}, ${LIVE_STREAM} from channels c where c.account_id = $1 ${after} order by c.seq desc limit $2`,
    params,
  );
}

export async function channelExists(db: Db, accountId: string, id: string): Promise<boolean> {
  if (!CHANNEL_ID.test(id)) return false;
  const [row] = await db`select 1 from channels where id = ${id} and account_id = ${accountId}`;
  return row !== undefined;
}

export async function updateChannel(db: Db, id: string, changes: ChannelChanges): Promise<ChannelRow> {
  const values: Record<string, unknown> = { ...changes };
  if ('metadata' in changes) values.metadata = json(db, changes.metadata ?? null);
  if (changes.player) values.player = db.json(changes.player as never);
  if (changes.chat) values.chat = db.json(changes.chat as never);
  const [row] = await db<ChannelRow[]>`
    update channels set ${db(values)} where id = ${id}
    returning id, account_id, name, metadata, player, chat, created_at, updated_at`;
  return row as ChannelRow;
}

/** Counts stop just past the limit: enough to compare, bounded however many rows exist. */
export async function countChannels(db: Db, accountId: string, upTo: number): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from (select 1 from channels where account_id = ${accountId} limit ${upTo}) c`;
  return row?.n ?? 0;
}

/** The channel's streams that can still be published to, up to a few (what a refused deletion names). */
export async function openStreams(db: Db, channelId: string): Promise<{ id: string; status: string }[]> {
  return db<{ id: string; status: string }[]>`
    select id, status from streams where channel_id = ${channelId} and status in ('pending', 'live')
    order by seq desc limit 5`;
}

export async function deleteChannel(db: Db, id: string): Promise<void> {
  await db`delete from channels where id = ${id}`;
}
