import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import type { Db, Sql } from '../../../platform/db/connect.js';
import type { Account } from '../../ledger/accounts/model.js';
import { ownStream } from '../../streams/model.js';
import * as q from './queries.js';
import type { Ban, BanList, CreateBanBody, ListBansQuery } from './schemas.js';

const present = (row: q.BanRow): Ban => ({
  object: 'ban',
  id: row.id,
  stream_id: row.stream_id,
  viewer_id: row.viewer_id,
  message_id: row.message_id,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
});

/** What chat tells bans: who wrote a message, and what a new ban does to chat (its posts are shadowed). */
export interface ChatBanHooks {
  author(db: Db, streamId: string, messageId: string): Promise<{ viewerId: string; network: string | null } | null>;
  banned(
    db: Db,
    ban: { streamId: string; viewerId: string; network: string | null; createdBy: string; at: Date },
  ): Promise<void>;
}

/**
 * Bans of a stream, by the client's own viewer id (a token's `sub`): a ban follows the person to
 * any browser. Members-only playback is refused to a banned viewer (`viewer_removed`); chat
 * shadows a banned viewer's posts (docs/decisions.md, Chat).
 */
export class BansService {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly chat: ChatBanHooks,
  ) {}

  async create(account: Account, streamId: string, body: CreateBanBody): Promise<{ ban: Ban; created: boolean }> {
    const stream = await this.stream(account, streamId);
    return this.ban(stream, body, 'owner');
  }

  /** A ban made by `createdBy` (`owner` or a moderator id) on a stream already authorised. */
  async ban(streamId: string, body: CreateBanBody, createdBy: string): Promise<{ ban: Ban; created: boolean }> {
    if ((body.viewer_id === undefined) === (body.message_id === undefined)) {
      throw new ApiError('invalid_request', 'Send exactly one of `viewer_id` and `message_id`.', {
        field: body.viewer_id === undefined ? 'viewer_id' : 'message_id',
      });
    }
    return this.sql.begin(async (tx) => {
      let target = { viewerId: body.viewer_id as string, network: null as string | null };
      if (body.message_id !== undefined) {
        const author = await this.chat.author(tx, streamId, body.message_id);
        if (!author) throw new ApiError('not_found', `No chat message ${body.message_id} on stream ${streamId}.`);
        target = author;
      }
      const at = this.clock.now();
      const row = {
        id: newId('ban_'),
        stream_id: streamId,
        viewer_id: target.viewerId,
        message_id: body.message_id ?? null,
        network: target.network,
        created_by: createdBy,
        created_at: at,
      };
      const { row: ban, created } = await q.insertBan(tx, row);
      if (created)
        await this.chat.banned(tx, { streamId, viewerId: target.viewerId, network: target.network, createdBy, at });
      return { ban: present(ban), created };
    });
  }

  async list(account: Account, streamId: string, query: ListBansQuery): Promise<BanList> {
    const stream = await this.stream(account, streamId);
    const limit = query.limit ?? 20;
    const rows = await q.listBans(this.sql, stream, limit + 1, query.starting_after);
    return { object: 'list', data: rows.slice(0, limit).map(present), has_more: rows.length > limit };
  }

  async remove(account: Account, streamId: string, banId: string): Promise<void> {
    const stream = await this.stream(account, streamId);
    if (!(await q.deleteBan(this.sql, stream, banId))) throw notFound('ban on this stream');
  }

  isBanned(streamId: string, viewerId: string): Promise<boolean> {
    return q.isBanned(this.sql, streamId, viewerId);
  }

  private async stream(account: Account, id: string): Promise<string> {
    return (await ownStream(this.sql, account.id, id)).id;
  }
}
