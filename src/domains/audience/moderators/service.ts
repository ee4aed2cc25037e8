import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { Account } from '../../ledger/accounts/model.js';
import {
  channelScope,
  ownScope,
  scopeId,
  scopesOf,
  streamScope,
  type ScopedStream,
  type ScopeRef,
} from '../bans/scope.js';
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
  /** A moderator of the stream's channel (it bans on the channel); null: of the stream only. */
  channelId: string | null;
}

export interface ModeratorsDeps {
  sql: Sql;
  clock: Clock;
  links: ModeratorLinkTokens;
  /** The hosted player's address (`player_url`): links open the stream's page there. */
  playerUrl: string;
}

const isActive = (row: q.ModeratorRow, now: Date): boolean => row.removed_at === null && row.active_until > now;
/** The active one of a viewer's records on a stream and its channel; the channel's first (it covers more). */
const activeOf = (rows: q.ModeratorRow[], now: Date): q.ModeratorRow | null =>
  rows
    .filter((r) => isActive(r, now))
    .sort((a, b) => Number(b.channel_id !== null) - Number(a.channel_id !== null))[0] ?? null;
const refuseLink = (why: string): ApiError => new ApiError('invalid_viewer_token', `Moderator link refused: ${why}.`);

/**
 * Moderators of a stream's chat (docs/decisions.md, Chat → Moderators), or of every stream of a
 * channel (its moderation group; docs/decisions.md, Channels): invited by the owner (with a link,
 * and optionally a viewer id) or made by moderator-role viewer tokens. A removed moderator is
 * kept, marked removed, so no later token restores it.
 */
export class ModeratorsService {
  private readonly cache = new Map<string, { value: ActiveModerator | null; at: number }>();

  constructor(private readonly deps: ModeratorsDeps) {}

  async invite(
    account: Account,
    ref: ScopeRef,
    body: InviteModeratorBody,
  ): Promise<{ moderator: Moderator; created: boolean }> {
    const scope = await ownScope(this.deps.sql, account.id, ref);
    // A link opens one stream's page; a channel's streams come and go, so its moderators sign in with their tokens.
    if (scope.channel_id !== null && body.viewer_id === undefined)
      throw new ApiError(
        'invalid_request',
        "A channel's moderator needs `viewer_id`: they moderate every stream of the channel by signing in with their viewer tokens (links are per stream).",
        { field: 'viewer_id' },
      );
    const now = this.deps.clock.now();
    const id = newId('mod_');
    const row = await q.inviteModerator(this.deps.sql, {
      id,
      ...scope,
      viewer_id: body.viewer_id ?? id,
      name: body.name,
      active_until: addSeconds(now, (body.active_days ?? DEFAULT_ACTIVE_DAYS) * 86_400),
      created_at: now,
    });
    this.forget(row.viewer_id);
    return { moderator: this.present(row), created: row.id === id };
  }

  async list(account: Account, ref: ScopeRef, query: ListModeratorsQuery): Promise<ModeratorList> {
    const scope = await ownScope(this.deps.sql, account.id, ref);
    const limit = query.limit ?? 20;
    const rows = await q.listModerators(this.deps.sql, scopeId(scope), limit + 1, query.starting_after);
    return { object: 'list', data: rows.slice(0, limit).map((r) => this.present(r)), has_more: rows.length > limit };
  }

  async remove(account: Account, ref: ScopeRef, moderatorId: string): Promise<void> {
    const scope = await ownScope(this.deps.sql, account.id, ref);
    const row = await q.removeModerator(this.deps.sql, scopeId(scope), moderatorId, this.deps.clock.now());
    if (!row) throw notFound(`moderator on this ${ref.kind}`);
    this.forget(row.viewer_id);
  }

  /**
   * The viewer's active moderator on the stream or its channel (not removed, `active_until`
   * ahead), or null. Read at most once per {@link ACTIVE_TTL_MS} per (stream, viewer) on this node.
   */
  async active(stream: ScopedStream, viewerId: string): Promise<ActiveModerator | null> {
    const now = this.deps.clock.now();
    const k = key(stream.id, viewerId);
    const known = this.cache.get(k);
    if (known && now.getTime() - known.at < ACTIVE_TTL_MS) return known.value;
    const row = activeOf(await q.findModeratorsOf(this.deps.sql, scopesOf(stream), viewerId), now);
    const value = row && { id: row.id, name: row.name, channelId: row.channel_id };
    // Map order is insertion order: re-inserting keeps the oldest entry first, to go first when full.
    this.cache.delete(k);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(k, { value, at: now.getTime() });
    return value;
  }

  /** The moderator a viewer session opens as (the stream's or its channel's), read now (not cached): a removal shows at once. */
  async forSession(stream: ScopedStream, viewerId: string): Promise<q.ModeratorRow | null> {
    return activeOf(await q.findModeratorsOf(this.deps.sql, scopesOf(stream), viewerId), this.deps.clock.now());
  }

  /**
   * A moderator-role token signed in: a moderator of the stream's channel (of the stream when it is
   * in none) for one day from now, never less than an invitation already gives. When the owner
   * removed this viewer there, the sign-in makes nothing: the session is a moderator only if
   * another record (a stream's invitation) says so.
   */
  async signIn(stream: ScopedStream, viewerId: string, name: string | null): Promise<q.ModeratorRow | null> {
    const now = this.deps.clock.now();
    const row = await q.signInModerator(this.deps.sql, {
      id: newId('mod_'),
      ...(stream.channel_id === null ? streamScope(stream.id) : channelScope(stream.channel_id)),
      viewer_id: viewerId,
      name,
      source: 'token',
      active_until: addSeconds(now, TOKEN_DAYS * 86_400),
      created_at: now,
    });
    this.forget(viewerId);
    return row ?? this.forSession(stream, viewerId);
  }

  /** The active moderator a link's token names; anything else is `401 invalid_viewer_token` saying why. */
  async byLink(stream: ScopedStream, token: string): Promise<q.ModeratorRow> {
    const id = this.deps.links.read(token);
    const row = id === null ? null : await q.findModerator(this.deps.sql, id);
    if (!row) throw refuseLink('it was not issued by this service');
    if (row.stream_id !== stream.id && (row.channel_id === null || row.channel_id !== stream.channel_id))
      throw refuseLink('it is for another stream');
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
      channel_id: row.channel_id,
      viewer_id: row.viewer_id,
      name: row.name,
      source: row.source,
      active_until: row.active_until.toISOString(),
      created_at: row.created_at.toISOString(),
      link:
        row.source === 'invitation' && row.stream_id !== null
          ? `${this.deps.playerUrl}/${row.stream_id}#mod=${this.deps.links.sign(row.id)}`
          : null,
    };
  }

  /**
   * Drops what this node believes of a viewer on every stream: a channel's moderator covers
   * streams the cache knows by their own ids. Owner actions are rare; the scan is of at most
   * MAX_CACHED entries.
   */
  private forget(viewerId: string): void {
    // A stream id has no space: the viewer id is everything after the first.
    for (const k of this.cache.keys()) if (k.slice(k.indexOf(' ') + 1) === viewerId) this.cache.delete(k);
  }
}

const key = (streamId: string, viewerId: string): string => `${streamId} ${viewerId}`;
