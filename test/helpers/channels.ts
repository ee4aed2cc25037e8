import { newId } from '../../src/core/ids.js';
import type { Sql } from '../../src/platform/db/connect.js';
import { DEFAULT_CHAT, DEFAULT_PLAYER } from '../../src/domains/streams/model.js';

/** A channel row of the account, made straight in the database (what `POST /v1/channels` stores). */
export async function insertChannel(sql: Sql, accountId: string, name: string | null = null): Promise<string> {
  const id = newId('chn_');
  const now = new Date();
  await sql`
    insert into channels (id, account_id, name, player, chat, created_at, updated_at)
    values (${id}, ${accountId}, ${name}, ${sql.json(DEFAULT_PLAYER as never)}, ${sql.json(DEFAULT_CHAT as never)}, ${now}, ${now})`;
  return id;
}

/** Puts a stream in a channel (or in none). */
export async function setStreamChannel(sql: Sql, streamId: string, channelId: string | null): Promise<void> {
  await sql`update streams set channel_id = ${channelId} where id = ${streamId}`;
}
