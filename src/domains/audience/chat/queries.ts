import type { Db } from '../../../platform/db/connect.js';
import type { StreamRow } from '../../streams/model.js';

export interface MessageRow {
  id: string;
  stream_id: string;
  seq: number;
  viewer_id: string;
  network: string | null;
  name: string;
  verified: boolean;
  role: 'viewer' | 'moderator';
  text: string;
  hidden: boolean;
  created_at: Date;
  deleted_at: Date | null;
  deleted_by: string | null;
}

export type EventKind = 'message' | 'delete' | 'settings';

export interface EventRow {
  stream_id: string;
  seq: number;
  kind: EventKind;
  payload: Record<string, unknown>;
  only_viewer: string | null;
  except_viewer: string | null;
  created_at: Date;
}

/**
 * The next position of the stream's feed. The row stays locked until the transaction ends, so
 * positions of one stream commit in the order they were taken, and checks made after this one
 * (rate limits, slow mode) see every earlier post of every node.
 */
export async function takeSeq(db: Db, streamId: string): Promise<number> {
  const [row] = await db<{ last_seq: number }[]>`
    insert into chat_feeds (stream_id, last_seq) values (${streamId}, 1)
    on conflict (stream_id) do update set last_seq = chat_feeds.last_seq + 1
    returning last_seq`;
  return (row as { last_seq: number }).last_seq;
}

export async function lastSeqs(db: Db, streamIds: string[]): Promise<Map<string, number>> {
  const rows = await db<{ stream_id: string; last_seq: number }[]>`
    select stream_id, last_seq from chat_feeds where stream_id = any(${streamIds})`;
  return new Map(rows.map((r) => [r.stream_id, r.last_seq]));
}

/**
 * A viewer's posts since `windowStart` (how many, the first: the rate limit) and their latest
 * since `since` (slow mode, which may look further back).
 */
export async function recentPosts(
  db: Db,
  streamId: string,
  viewerId: string,
  windowStart: Date,
  since: Date,
): Promise<{ count: number; first: Date | null; last: Date | null }> {
  const [row] = await db<{ count: number; first: Date | null; last: Date | null }[]>`
    select count(*) filter (where created_at > ${windowStart})::int as count,
      min(created_at) filter (where created_at > ${windowStart}) as first,
      max(created_at) as last
    from chat_messages
    where stream_id = ${streamId} and viewer_id = ${viewerId} and created_at > ${since}`;
  return row ?? { count: 0, first: null, last: null };
}

/** Anonymous posts from one network within the last `seconds` (a script cannot rotate client ids past the limit). */
export async function recentNetworkPosts(db: Db, streamId: string, network: string, since: Date): Promise<number> {
  const [row] = await db<{ count: number }[]>`
    select count(*)::int as count from chat_messages
    where stream_id = ${streamId} and network = ${network} and created_at > ${since}`;
  return row?.count ?? 0;
}

/** Banned on any of `scopes` (a stream and its channel), by viewer id or, for anonymous posters, by network. */
export async function isBannedPoster(
  db: Db,
  scopes: string[],
  viewerId: string,
  network: string | null,
): Promise<boolean> {
  const rows = network
    ? await db`select 1 from bans where scope_id = any(${scopes}) and (viewer_id = ${viewerId} or network = ${network}) limit 1`
    : await db`select 1 from bans where scope_id = any(${scopes}) and viewer_id = ${viewerId} limit 1`;
  return rows.length > 0;
}

export async function insertMessage(db: Db, row: MessageRow): Promise<void> {
  await db`insert into chat_messages ${db(row as never)}`;
}

export async function insertEvent(db: Db, row: EventRow): Promise<void> {
  await db`insert into chat_events ${db({ ...row, payload: db.json(row.payload as never) } as never)}`;
}

export async function notify(db: Db, channel: string, payload: string): Promise<void> {
  await db`select pg_notify(${channel}, ${payload})`;
}

export async function findMessage(db: Db, streamId: string, id: string): Promise<MessageRow | null> {
  const [row] = await db<MessageRow[]>`select * from chat_messages where stream_id = ${streamId} and id = ${id}`;
  return row ?? null;
}

/** A message of any stream of the channel. */
export async function findChannelMessage(db: Db, channelId: string, id: string): Promise<MessageRow | null> {
  const [row] = await db<MessageRow[]>`
    select m.* from chat_messages m join streams s on s.id = m.stream_id
    where m.id = ${id} and s.channel_id = ${channelId}`;
  return row ?? null;
}

/** The streams of the channel where the viewer has posts still shown (a channel ban shadows them). */
export async function channelStreamsPostedIn(db: Db, channelId: string, viewerId: string): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select s.id from streams s
    where s.channel_id = ${channelId} and exists (
      select 1 from chat_messages m
      where m.stream_id = s.id and m.viewer_id = ${viewerId} and not m.hidden and m.deleted_at is null)
    order by s.id`;
  return rows.map((r) => r.id);
}

/** Marks the message deleted (once); null when it was already. */
export async function markDeleted(
  db: Db,
  streamId: string,
  id: string,
  at: Date,
  by: string,
): Promise<MessageRow | null> {
  const [row] = await db<MessageRow[]>`
    update chat_messages set deleted_at = ${at}, deleted_by = ${by}
    where stream_id = ${streamId} and id = ${id} and deleted_at is null returning *`;
  return row ?? null;
}

/** Shadows every visible message of a banned viewer; the newest ids first. */
export async function hideAuthor(db: Db, streamId: string, viewerId: string): Promise<string[]> {
  const rows = await db<{ id: string; seq: number }[]>`
    update chat_messages set hidden = true
    where stream_id = ${streamId} and viewer_id = ${viewerId} and not hidden and deleted_at is null
    returning id, seq`;
  return rows.sort((a, b) => b.seq - a.seq).map((r) => r.id);
}

export async function eventsAfter(db: Db, streamId: string, afterSeq: number, limit: number): Promise<EventRow[]> {
  return db<EventRow[]>`
    select * from chat_events where stream_id = ${streamId} and seq > ${afterSeq}
    order by seq limit ${limit}`;
}

/** The newest visible messages at or before a feed position, newest first. */
export async function visibleMessages(
  db: Db,
  streamId: string,
  opts: { limit: number; beforeSeq?: number; atOrBeforeSeq?: number },
): Promise<MessageRow[]> {
  const before = opts.beforeSeq === undefined ? db`` : db`and seq < ${opts.beforeSeq}`;
  const atOrBefore = opts.atOrBeforeSeq === undefined ? db`` : db`and seq <= ${opts.atOrBeforeSeq}`;
  return db<MessageRow[]>`
    select * from chat_messages
    where stream_id = ${streamId} and not hidden and deleted_at is null ${before} ${atOrBefore}
    order by seq desc limit ${opts.limit}`;
}

/** The owner's view: every message, newest first, paged by the last id of the previous page. */
export async function ownerMessages(
  db: Db,
  streamId: string,
  limit: number,
  startingAfter: string | undefined,
): Promise<MessageRow[]> {
  const after = startingAfter
    ? db`and seq < coalesce((select seq from chat_messages where stream_id = ${streamId} and id = ${startingAfter}), 9223372036854775807)`
    : db``;
  return db<MessageRow[]>`
    select * from chat_messages where stream_id = ${streamId} ${after}
    order by seq desc limit ${limit}`;
}

export async function setSlowMode(db: Db, streamId: string, seconds: number): Promise<StreamRow> {
  const [row] = await db<StreamRow[]>`
    update streams set chat = jsonb_set(chat, '{slow_mode_seconds}', to_jsonb(${seconds}::int)) where id = ${streamId} returning *`;
  return row as StreamRow;
}

/** The verified names of a stream: its token sessions' names and its (and its channel's) moderators' names. */
export async function verifiedNames(db: Db, streamId: string): Promise<string[]> {
  const rows = await db<{ name: string }[]>`
    select name from viewer_sessions where stream_id = ${streamId} and name is not null
    union
    select name from moderators
    where scope_id in (${streamId}, (select channel_id from streams where id = ${streamId}))
      and name is not null and removed_at is null`;
  return rows.map((r) => r.name);
}
