import type { Clock } from '../../core/clock.js';
import { ApiError, notFound } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Sql } from '../../platform/db/connect.js';
import type { Account } from '../accounts/queries.js';
import { ownStream } from '../streams/own-stream.js';
import * as q from './queries.js';
import type { Ban, BanList, CreateBanBody, ListBansQuery } from './schemas.js';

const present = (row: q.BanRow): Ban => ({
  object: 'ban',
  id: row.id,
  stream_id: row.stream_id,
  viewer_id: row.viewer_id,
  message_id: row.message_id,
  created_at: row.created_at.toISOString(),
});

/**
 * Bans of a stream, by the client's own viewer id (a token's `sub`): a ban follows the person to
 * any browser. Members-only playback is refused to a banned viewer (`viewer_removed`); chat's
 * shadow ban reads the same rows.
 */
export class BansService {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async create(account: Account, streamId: string, body: CreateBanBody): Promise<{ ban: Ban; created: boolean }> {
    if ((body.viewer_id === undefined) === (body.message_id === undefined)) {
      throw new ApiError('invalid_request', 'Send exactly one of `viewer_id` and `message_id`.', { field: body.viewer_id === undefined ? 'viewer_id' : 'message_id' });
    }
    const stream = await this.stream(account, streamId);
    if (body.message_id !== undefined) {
      // Chat messages come with chat (docs/decisions.md, Viewer identity): until then no message exists to ban by.
      throw new ApiError('not_found', `No chat message ${body.message_id} on stream ${stream}; ban by \`viewer_id\`.`);
    }
    const row = { id: newId('ban_'), stream_id: stream, viewer_id: body.viewer_id as string, message_id: null, created_at: this.clock.now() };
    const { row: ban, created } = await q.insertBan(this.sql, row);
    return { ban: present(ban), created };
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
