import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import type { Db, Sql } from '../../../platform/db/connect.js';
import type { Account } from '../../ledger/accounts/model.js';
import * as q from './queries.js';
import type { Ban, BanList, CreateBanBody, ListBansQuery } from './schemas.js';
import { ownScope, scopeId, scopesOf, type Scope, type ScopedStream, type ScopeRef } from './scope.js';

const present = (row: q.BanRow): Ban => ({
  object: 'ban',
  id: row.id,
  stream_id: row.stream_id,
  channel_id: row.channel_id,
  viewer_id: row.viewer_id,
  message_id: row.message_id,
  created_by: row.created_by,
  created_at: row.created_at.toISOString(),
});

const named = (scope: Scope): string =>
  scope.stream_id === null ? `any stream of channel ${scope.channel_id}` : `stream ${scope.stream_id}`;

/** What chat tells bans: who wrote a message, and what a new ban does to chat (its posts are shadowed). */
export interface ChatBanHooks {
  /** The author of a message of the stream, or of any stream of the channel. */
  author(db: Db, scope: Scope, messageId: string): Promise<{ viewerId: string; network: string | null } | null>;
  banned(
    db: Db,
    ban: { scope: Scope; viewerId: string; network: string | null; createdBy: string; at: Date },
  ): Promise<void>;
}

/**
 * Bans of a stream or of a channel (every stream of it, present and future), by the client's own
 * viewer id (a token's `sub`): a ban follows the person to any browser. Members-only playback is
 * refused to a banned viewer (`viewer_removed`); chat shadows a banned viewer's posts
 * (docs/decisions.md, Chat).
 */
export class BansService {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly chat: ChatBanHooks,
  ) {}

  async create(account: Account, ref: ScopeRef, body: CreateBanBody): Promise<{ ban: Ban; created: boolean }> {
    return this.ban(await ownScope(this.sql, account.id, ref), body, 'owner');
  }

  /** A ban made by `createdBy` (`owner` or a moderator id) on a stream or channel already authorised. */
  async ban(scope: Scope, body: CreateBanBody, createdBy: string): Promise<{ ban: Ban; created: boolean }> {
    if ((body.viewer_id === undefined) === (body.message_id === undefined)) {
      throw new ApiError('invalid_request', 'Send exactly one of `viewer_id` and `message_id`.', {
        field: body.viewer_id === undefined ? 'viewer_id' : 'message_id',
      });
    }
    return this.sql.begin(async (tx) => {
      let target = { viewerId: body.viewer_id as string, network: null as string | null };
      if (body.message_id !== undefined) {
        const author = await this.chat.author(tx, scope, body.message_id);
        if (!author) throw new ApiError('not_found', `No chat message ${body.message_id} on ${named(scope)}.`);
        target = author;
      }
      const at = this.clock.now();
      const row = {
        id: newId('ban_'),
        ...scope,
        viewer_id: target.viewerId,
        message_id: body.message_id ?? null,
        network: target.network,
        created_by: createdBy,
        created_at: at,
      };
      const { row: ban, created } = await q.insertBan(tx, row);
      if (created)
        await this.chat.banned(tx, { scope, viewerId: target.viewerId, network: target.network, createdBy, at });
      return { ban: present(ban), created };
    });
  }

  async list(account: Account, ref: ScopeRef, query: ListBansQuery): Promise<BanList> {
    const scope = await ownScope(this.sql, account.id, ref);
    const limit = query.limit ?? 20;
    const rows = await q.listBans(this.sql, scopeId(scope), limit + 1, query.starting_after);
    return { object: 'list', data: rows.slice(0, limit).map(present), has_more: rows.length > limit };
  }

  async remove(account: Account, ref: ScopeRef, banId: string): Promise<void> {
    const scope = await ownScope(this.sql, account.id, ref);
    if (!(await q.deleteBan(this.sql, scopeId(scope), banId))) throw notFound(`ban on this ${ref.kind}`);
  }

  /** Banned on the stream or on its channel. */
  isBanned(stream: ScopedStream, viewerId: string): Promise<boolean> {
    return q.isBanned(this.sql, scopesOf(stream), viewerId);
  }
}
