import type { Clock } from '../../../core/clock.js';
import type { PublicUrls } from '../../../config/config.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import type { Sql, Tx } from '../../../platform/db/connect.js';
import type { Idempotency } from '../../ledger/idempotency/service.js';
import { lockAccount, type Account } from '../../ledger/accounts/model.js';
import { DEFAULT_CHAT, DEFAULT_PLAYER, normaliseName } from '../model.js';
import { presentChannel } from './present.js';
import * as q from './queries.js';
import {
  MAX_CHANNELS,
  type Channel,
  type ChannelList,
  type CreateChannelBody,
  type DeletedChannel,
  type ListChannelsQuery,
  type PatchChannelBody,
} from './schemas.js';

export interface ChannelsDeps {
  sql: Sql;
  clock: Clock;
  idempotency: Idempotency;
  urls: Pick<PublicUrls, 'player_url'>;
}

/**
 * Channels (docs/decisions.md, "Channels: the API"): a name and the player and chat settings that
 * streams created in the channel start with. The streams themselves keep their own copies.
 */
export class ChannelsService {
  constructor(private readonly deps: ChannelsDeps) {}

  async create(
    account: Account,
    body: CreateChannelBody | undefined,
    idempotencyKey: string | undefined,
  ): Promise<{ channel: Channel; replayed: boolean }> {
    const input = body ?? {};
    if (!idempotencyKey)
      return { channel: await this.deps.sql.begin((tx) => this.createIn(tx, account, input)), replayed: false };
    // Keys are the account's, shared with stream creation: the body is wrapped so that a stream's
    // key reused here with the same fields is a reuse (422), never the stream's answer replayed.
    const result = await this.deps.idempotency.run(account.id, idempotencyKey, { channel: input }, async (tx) => ({
      status: 201,
      body: await this.createIn(tx, account, input),
    }));
    return { channel: result.body as Channel, replayed: result.replayed };
  }

  private async createIn(tx: Tx, account: Account, input: CreateChannelBody): Promise<Channel> {
    // Counted under the account's row lock: two creations at once cannot pass the limit together.
    await lockAccount(tx, account.id);
    const current = await q.countChannels(tx, account.id, MAX_CHANNELS);
    if (current >= MAX_CHANNELS)
      throw new ApiError('limit_channels', `${current} channels exist, the most allowed; delete one first.`, {
        limit: MAX_CHANNELS,
        current,
      });
    const now = this.deps.clock.now();
    const row = await q.insertChannel(tx, {
      id: newId('chn_'),
      account_id: account.id,
      name: normaliseName(input.name ?? null),
      metadata: input.metadata ?? null,
      player: { ...DEFAULT_PLAYER, ...input.player },
      chat: { ...DEFAULT_CHAT, ...input.chat },
      created_at: now,
      updated_at: now,
    });
    return this.present({ ...row, live_stream_id: null });
  }

  async list(account: Account, query: ListChannelsQuery): Promise<ChannelList> {
    const limit = query.limit ?? 20;
    const after = query.starting_after ?? null;
    const rows = await q.listChannels(this.deps.sql, account.id, { limit: limit + 1, after });
    // As the stream list: a cursor naming no channel of the account is refused, not an empty page.
    if (after !== null && rows.length === 0 && !(await q.channelExists(this.deps.sql, account.id, after))) {
      throw new ApiError('invalid_request', `\`starting_after\` names no channel of this account: ${after}.`, {
        field: 'starting_after',
      });
    }
    return { object: 'list', data: rows.slice(0, limit).map((r) => this.present(r)), has_more: rows.length > limit };
  }

  async get(account: Account, id: string): Promise<Channel> {
    const row = await q.readChannel(this.deps.sql, account.id, id);
    if (!row) throw notFound('channel');
    return this.present(row);
  }

  /** Left-out fields stay, null clears, metadata is replaced whole, player and chat merge (as a stream's patch). */
  async update(account: Account, id: string, body: PatchChannelBody): Promise<Channel> {
    return this.deps.sql.begin(async (tx) => {
      const row = await q.lockChannel(tx, account.id, id, 'update');
      if (!row) throw notFound('channel');
      const changes: q.ChannelChanges = { updated_at: this.deps.clock.now() };
      if (body.name !== undefined) changes.name = normaliseName(body.name);
      if (body.metadata !== undefined) changes.metadata = body.metadata;
      if (body.player !== undefined) changes.player = { ...row.player, ...body.player };
      if (body.chat !== undefined) changes.chat = { ...row.chat, ...body.chat };
      await q.updateChannel(tx, id, changes);
      return this.present((await q.readChannel(tx, account.id, id)) as q.ChannelRead);
    });
  }

  /**
   * Refused while a stream of the channel is pending or live: its page and its viewers' channel
   * tokens would lose it mid-broadcast. Finished streams stay, without the link (`on delete set null`).
   */
  async remove(account: Account, id: string): Promise<DeletedChannel> {
    return this.deps.sql.begin(async (tx) => {
      // Locked before the streams are counted: a stream being created in it is committed (and
      // counted) first, and one created after waits and then finds no channel.
      if (!(await q.lockChannel(tx, account.id, id, 'update'))) throw notFound('channel');
      const row = (await q.readChannel(tx, account.id, id)) as q.ChannelRead;
      const open = await q.openStreams(tx, id);
      if (open.length > 0)
        throw new ApiError(
          'channel_not_empty',
          `The channel has streams that are pending or live (${open.map((s) => `${s.id}: ${s.status}`).join(', ')}); end or cancel them first (DELETE /v1/streams/{id}).`,
          { stream_ids: open.map((s) => s.id) },
        );
      await q.deleteChannel(tx, id);
      return { ...this.present(row), deleted: true };
    });
  }

  private present(row: q.ChannelRead): Channel {
    return presentChannel(row, this.deps.urls);
  }
}
