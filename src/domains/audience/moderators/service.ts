import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { Account } from '../../ledger/accounts/model.js';
import { ownStream } from '../../streams/model.js';
import type { ModeratorLinkTokens } from './link-token.js';
import * as q from './queries.js';
import {
  DEFAULT_ACTIVE_DAYS,
  type InviteModeratorBody,
  type ListModeratorsQuery,
  type Moderator,
  type ModeratorList,
} from './schemas.js';

export type { ModeratorRow } from './queries.js';

/** A moderator-role sign-in makes the viewer a moderator for this long (spec, Authentication 7). */
const TOKEN_DAYS = 1;
/**
 * How long a node believes what it read of a (stream, viewer)'s moderator: a moderator's every
 * chat action costs a map lookup, and a removal reaches every node within this.
 */
export const ACTIVE_TTL_MS = 2000;
const MAX_CACHED = 10_000;

/** What chat needs of an active moderator. */
export interface ActiveModerator {
  id: string;
  name: string | null;
}

export interface ModeratorsDeps {
  sql: Sql;
  clock: Clock;
  links: ModeratorLinkTokens;
  /** The hosted player's address (`player_url`): links open the stream's page there. */
  playerUrl: string;
}

const isActive = (row: q.ModeratorRow, now: Date): boolean => row.removed_at === null && row.active_until > now;
const refuseLink = (why: string): ApiError => new ApiError('invalid_viewer_token', `Moderator link refused: ${why}.`);

/**
 * Moderators of a stream's chat (docs/decisions.md, Chat → Moderators): invited by the owner
 * (with a link, and optionally a viewer id) or made by moderator-role viewer tokens. A removed
 * moderator is kept, marked removed, so no later token restores it.
 */
export class ModeratorsService {
  private readonly cache = new Map<string, { value: ActiveModerator | null; at: number }>();

  constructor(private readonly deps: ModeratorsDeps) {}

  async invite(
    account: Account,
    streamId: string,
    body: InviteModeratorBody,
  ): Promise<{ moderator: Moderator; created: boolean }> {
    const stream = await this.stream(account, streamId);
    const now = this.deps.clock.now();
    const id = newId('mod_');
    const row = await q.inviteModerator(this.deps.sql, {
      id,
      stream_id: stream,
      viewer_id: body.viewer_id ?? id,
      name: body.name,
      active_until: addSeconds(now, (body.active_days ?? DEFAULT_ACTIVE_DAYS) * 86_400),
      created_at: now,
    });
    this.cache.delete(key(row.stream_id, row.viewer_id));
    return { moderator: this.present(row), created: row.id === id };
  }

  async list(account: Account, streamId: string, query: ListModeratorsQuery): Promise<ModeratorList> {
    const stream = await this.stream(account, streamId);
    const limit = query.limit ?? 20;
    const rows = await q.listModerators(this.deps.sql, stream, limit + 1, query.starting_after);
    return { object: 'list', data: rows.slice(0, limit).map((r) => this.present(r)), has_more: rows.length > limit };
  }

  async remove(account: Account, streamId: string, moderatorId: string): Promise<void> {
    const stream = await this.stream(account, streamId);
    const row = await q.removeModerator(this.deps.sql, stream, moderatorId, this.deps.clock.now());
    if (!row) throw notFound('moderator on this stream');
    this.cache.delete(key(row.stream_id, row.viewer_id));
  }

  /**
   * The viewer's active moderator on the stream (not removed, `active_until` ahead), or null. Read
   * at most once per {@link ACTIVE_TTL_MS} per (stream, viewer) on this node.
   */
  async active(streamId: string, viewerId: string): Promise<ActiveModerator | null> {
    const now = this.deps.clock.now();
    const k = key(streamId, viewerId);
    const known = this.cache.get(k);
    if (known && now.getTime() - known.at < ACTIVE_TTL_MS) return known.value;
    const row = await q.findModeratorOf(this.deps.sql, streamId, viewerId);
    const value = row && isActive(row, now) ? { id: row.id, name: row.name } : null;
    // Map order is insertion order: re-inserting keeps the oldest entry first, to go first when full.
    this.cache.delete(k);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(k, { value, at: now.getTime() });
    return value;
  }

  /** The moderator a viewer session opens as, read now (not cached): a removal shows at once. */
  async forSession(streamId: string, viewerId: string): Promise<q.ModeratorRow | null> {
    const row = await q.findModeratorOf(this.deps.sql, streamId, viewerId);
    return row && isActive(row, this.deps.clock.now()) ? row : null;
  }

  /**
   * A moderator-role token signed in: a moderator for one day from now, never less than an
   * invitation already gives; null when the owner removed this viewer as moderator.
   */
  async signIn(streamId: string, viewerId: string, name: string | null): Promise<q.ModeratorRow | null> {
    const now = this.deps.clock.now();
    const row = await q.signInModerator(this.deps.sql, {
      id: newId('mod_'),
      stream_id: streamId,
      viewer_id: viewerId,
      name,
      source: 'token',
      active_until: addSeconds(now, TOKEN_DAYS * 86_400),
      created_at: now,
    });
    this.cache.delete(key(streamId, viewerId));
    return row;
  }

  /** The active moderator a link's token names; anything else is `401 invalid_viewer_token` saying why. */
  async byLink(streamId: string, token: string): Promise<q.ModeratorRow> {
    const id = this.deps.links.read(token);
    const row = id === null ? null : await q.findModerator(this.deps.sql, id);
    if (!row) throw refuseLink('it was not issued by this service');
    if (row.stream_id !== streamId) throw refuseLink('it is for another stream');
    if (row.removed_at !== null) throw refuseLink("the stream's owner removed this moderator");
    if (row.active_until <= this.deps.clock.now())
      throw refuseLink(
        `the invitation ran out at ${row.active_until.toISOString()}; ask the stream's owner to invite you again`,
      );
    return row;
  }

  private present(row: q.ModeratorRow): Moderator {
    return {
      object: 'moderator',
      id: row.id,
      stream_id: row.stream_id,
      viewer_id: row.viewer_id,
      name: row.name,
      source: row.source,
      active_until: row.active_until.toISOString(),
      created_at: row.created_at.toISOString(),
      link:
        row.source === 'invitation'
          ? `${this.deps.playerUrl}/${row.stream_id}#mod=${this.deps.links.sign(row.id)}`
          : null,
    };
  }

  private async stream(account: Account, id: string): Promise<string> {
    return (await ownStream(this.deps.sql, account.id, id)).id;
  }
}

const key = (streamId: string, viewerId: string): string => `${streamId} ${viewerId}`;
