import type { ServerResponse } from 'node:http';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { ChatConfig } from '../../../config/schema.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { FixedWindows } from '../../../core/fixed-windows.js';
import { newId } from '../../../core/ids.js';
import { networkOf } from '../../../core/network.js';
import { addSeconds } from '../../../core/time.js';
import type { Db, Sql } from '../../../platform/db/connect.js';
import { SharedWindows } from '../../../platform/db/shared-windows.js';
import type { Account } from '../../ledger/accounts/model.js';
import type { Ban } from '../bans/schemas.js';
import { channelScope, scopesOf, streamScope, type ScopedStream } from '../bans/scope.js';
import type { BansService, ChatBanHooks } from '../bans/service.js';
import type { ActiveModerator } from '../moderators/service.js';
import type { StreamView } from '../identity/service.js';
import type { SessionClaims } from '../identity/session-token.js';
import { FINISHED, ownStream, type StreamRow } from '../../streams/model.js';
import type { ChatHub } from './hub.js';
import { appendEvent, presentMessage, presentOwnerMessage, shadowAuthor } from './log.js';
import { AddressSlots } from './address-slots.js';
import { hashedNetworkOf } from './network.js';
import { checkNickname, nameKey } from './nickname.js';
import { originAllowed } from './origin.js';
import * as q from './queries.js';
import {
  EMOJIS,
  MESSAGE_ID,
  type ChatMessage,
  type ChatMessageList,
  type EmbedChat,
  type FeedQuery,
  type HistoryQuery,
  type ModBanBody,
  type OwnerChatMessageList,
  type OwnerMessagesQuery,
  type PostMessageBody,
  type ReactionBody,
} from './schemas.js';

/**
 * Mean event-loop delay over the last second past which a node sheds posts with `chat_busy`: a
 * node that late on every turn is saturated (a single pause, a collection, does not count).
 */
const BUSY_LOOP_DELAY_MS = 100;
const LOOP_RESOLUTION_MS = 20;
const BUSY_RETRY_SECONDS = 2;
/** A verified viewer who just opened a session may be impersonated for at most this long (per node). */
const VERIFIED_NAMES_TTL_MS = 2000;
/** A feed refused for its address: its player's own reconnection waits at least this long. */
const FEED_RETRY_SECONDS = 30;

/** Who a chat request comes from. */
interface Poster {
  viewerId: string;
  name: string | null;
  verified: boolean;
  role: 'viewer' | 'moderator';
  /** Anonymous posters only. */
  network: string | null;
}

/** A public chat request: the stream, the caller's address and the browser's `Origin`. */
export interface ChatRequest {
  streamId: string;
  address: string;
  origin: string | undefined;
}

export interface ChatDeps {
  sql: Sql;
  clock: Clock;
  hub: ChatHub;
  bans: BansService;
  limits: ChatConfig;
  /** The cached public view of a stream (the embed service's). */
  streams: { view(id: string, address: string): Promise<StreamView> };
  /** A session token of the stream → its claims (`401 invalid_viewer_token` when refused or over). */
  sessions: { claims(streamId: string, token: string): Promise<SessionClaims> };
  /** The active moderator with this viewer id of the stream or of its channel, or null. */
  moderators: { active(stream: ScopedStream, viewerId: string): Promise<ActiveModerator | null> };
  /** The beacon rate of a stream: automatic reaction sampling follows it. */
  beaconRate(streamId: string): number;
  networkKey: Buffer;
  /** The appliance's own sites (player, API): always allowed to use chat. */
  ownOrigins: string[];
}

/** The chat of a stream as a player sees it: the feed's `settings` events and the slow-mode answer. */
export function embedChat(row: StreamRow, open: boolean, beaconRate: number): EmbedChat {
  return {
    enabled: open && row.chat.enabled,
    anonymous_posting: row.chat.anonymous_posting && !row.player.require_viewer_token,
    slow_mode_seconds: row.chat.slow_mode_seconds,
    reactions: { emojis: [...EMOJIS], rate: row.chat.reaction_sampling ?? beaconRate },
  };
}

/** Chat's side of bans: the author of a message, and shadowing a banned viewer's posts. */
export function chatBanHooks(): ChatBanHooks {
  return {
    author: async (db, scope, messageId) => {
      if (!MESSAGE_ID.test(messageId)) return null;
      const row =
        scope.stream_id === null
          ? await q.findChannelMessage(db, scope.channel_id, messageId)
          : await q.findMessage(db, scope.stream_id, messageId);
      return row && { viewerId: row.viewer_id, network: row.network };
    },
    // Past posts of the banned viewer are shadowed (on every stream of a channel); their network only
    // shadows anonymous posts from now on, so bystanders on the same connection keep what they already said.
    banned: async (db, ban) => {
      const streams =
        ban.scope.stream_id === null
          ? await q.channelStreamsPostedIn(db, ban.scope.channel_id, ban.viewerId)
          : [ban.scope.stream_id];
      for (const streamId of streams) await shadowAuthor(db, streamId, ban.viewerId, ban.createdBy, ban.at);
    },
  };
}

const field = (name: string, message: string) => new ApiError('invalid_request', message, { field: name });
/** One line of text: runs of whitespace (newlines included) become one space; other control characters are refused. */
function cleanText(name: string, value: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000e-\u001f\u007f]/.test(value)) throw field(name, `\`${name}\` contains control characters.`);
  const text = value.replace(/\s+/g, ' ').trim();
  if (!text) throw field(name, `\`${name}\` is empty.`);
  if (text.length > max) throw field(name, `\`${name}\` is longer than ${max} characters.`);
  return text;
}

/**
 * Viewer chat (docs/decisions.md, Chat): posting, reactions, the feed and history for players,
 * the owner's listing and deletion, and moderators' actions. Every event goes through the
 * stream's feed log (PostgreSQL) and out through each node's hub.
 */
export class ChatService {
  private readonly postWindows: FixedWindows;
  private readonly reactionWindows: SharedWindows;
  private readonly streamReactions: FixedWindows;
  private readonly feedSlots: AddressSlots;
  /** Each stream's verified names (`nameKey`s), read at most every few seconds per node. */
  private readonly verified = new Map<string, { keys: Set<string>; at: number }>();
  private postsInFlight = 0;
  private readonly loopDelay: IntervalHistogram;
  private busy = false;
  private loopTimer: NodeJS.Timeout | null = null;

  /** Feed connections this node holds (metrics). */
  get readers(): number {
    return this.deps.hub.readers;
  }

  constructor(private readonly deps: ChatDeps) {
    const now = () => deps.clock.now().getTime();
    this.postWindows = new FixedWindows(now, deps.limits.post_window_seconds * 1000, 100_000);
    this.reactionWindows = new SharedWindows({
      sql: deps.sql,
      scope: 'chat_reactions',
      windowSeconds: deps.limits.post_window_seconds,
      limit: deps.limits.reactions_per_window,
      now,
    });
    this.streamReactions = new FixedWindows(now, 1000);
    this.feedSlots = new AddressSlots(deps.limits.max_readers_per_address);
    this.loopDelay = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  }

  /** Starts the hub and the load watch; returns the stop. */
  start(): () => Promise<void> {
    const stopHub = this.deps.hub.start();
    this.loopDelay.enable();
    this.loopTimer = setInterval(() => {
      // The histogram counts the timer's own interval in every sample.
      this.busy = this.loopDelay.count > 0 && this.loopDelay.mean / 1e6 - LOOP_RESOLUTION_MS > BUSY_LOOP_DELAY_MS;
      this.loopDelay.reset();
    }, 1000);
    return async () => {
      if (this.loopTimer) clearInterval(this.loopTimer);
      this.loopDelay.disable();
      await stopHub();
    };
  }

  /** `POST /v1/embed/{id}/chat/messages`. */
  async post(req: ChatRequest, body: PostMessageBody): Promise<ChatMessage> {
    const view = await this.open(req);
    const poster = await this.poster(view.row, body, req.address);
    const name =
      poster.name ??
      (body.nickname === undefined ? null : checkNickname(body.nickname, await this.verifiedNames(view.row.id)));
    if (name === null) throw field('nickname', 'Send a `nickname`: your viewer token has no `name`.');
    const text = cleanText('text', body.text, 500);
    this.shedLoad();
    // A cheap first check in memory; the database's count (below) is the one every node agrees on.
    const key = `${view.row.id} ${poster.viewerId}`;
    this.limit(this.postWindows, key, this.deps.limits.posts_per_window);
    this.postsInFlight++;
    try {
      const message = await this.deps.sql.begin(async (tx) => this.insertPost(tx, view.row, poster, name, text));
      this.postWindows.add(key);
      return message;
    } finally {
      this.postsInFlight--;
    }
  }

  /** `POST /v1/embed/{id}/chat/reactions`: counted (weighted by the sampling rate) and announced once a second. */
  async react(req: ChatRequest, body: ReactionBody): Promise<void> {
    const view = await this.open(req);
    const poster = await this.poster(view.row, body, req.address);
    const { limits } = this.deps;
    // Counted in PostgreSQL, so a viewer's reactions add up on every node (a known excess costs no query).
    const key = `${view.row.id} ${poster.viewerId}`;
    const wait = this.reactionWindows.blocked(key) ?? (await this.reactionWindows.hit(key));
    if (wait !== null) throw this.rateLimited('reactions', wait);
    // Over the stream's budget for this second (per node): accepted and dropped, so a storm costs bounded work.
    if (this.streamReactions.over(view.row.id, limits.reactions_per_second) !== null) return;
    this.streamReactions.add(view.row.id);
    if (await q.isBannedPoster(this.deps.sql, scopesOf(view.row), poster.viewerId, poster.network)) return;
    const rate = view.row.chat.reaction_sampling ?? this.deps.beaconRate(view.row.id);
    this.deps.hub.react(view.row.id, body.emoji, 1 / Math.max(rate, 0.001), rate);
  }

  /** `GET /v1/embed/{id}/chat/messages`: the public history, oldest first. */
  async history(req: ChatRequest, query: HistoryQuery): Promise<ChatMessageList> {
    const view = await this.view(req);
    const limit = query.limit ?? 50;
    let beforeSeq: number | undefined;
    if (query.before !== undefined) {
      const before = MESSAGE_ID.test(query.before)
        ? await q.findMessage(this.deps.sql, view.row.id, query.before)
        : null;
      if (!before) throw field('before', `\`before\`: no message ${query.before} on this stream.`);
      beforeSeq = before.seq;
    }
    const rows = await q.visibleMessages(this.deps.sql, view.row.id, { limit: limit + 1, beforeSeq });
    return { object: 'list', data: rows.slice(0, limit).reverse().map(presentMessage), has_more: rows.length > limit };
  }

  /**
   * Checks a feed request before its answer starts (errors are ordinary answers), and returns
   * what opens it: the hub is loaded, so the stream then starts from memory.
   */
  async prepareFeed(
    req: ChatRequest,
    query: FeedQuery,
    lastEventId: string | undefined,
  ): Promise<(res: ServerResponse) => Promise<void>> {
    const view = await this.view(req);
    if (this.deps.hub.full())
      throw new ApiError('chat_busy', 'This node holds as many chat readers as it can; retry shortly.', {
        retry_after_seconds: 5,
      });
    let viewerId: string | null = null;
    if (query.t !== undefined) viewerId = (await this.deps.sessions.claims(view.row.id, query.t)).viewerId;
    else if (query.c !== undefined) viewerId = `anon:${query.c}`;
    const resumeFrom =
      query.after ?? (lastEventId !== undefined && /^[0-9]{1,15}$/.test(lastEventId) ? Number(lastEventId) : null);
    const settings = embedChat(view.row, view.open, this.deps.beaconRate(view.row.id));
    await this.deps.hub.prepare(view.row.id);
    // Taken last, so that no refusal above leaves a slot taken; held until the connection closes.
    const release = this.feedSlots.take(networkOf(req.address));
    if (!release) {
      const max = this.deps.limits.max_readers_per_address;
      throw new ApiError(
        'rate_limited',
        `At most ${max} chat feeds from one address on this node; close one, or retry in ${FEED_RETRY_SECONDS} s.`,
        { retry_after_seconds: FEED_RETRY_SECONDS, limit: max },
      );
    }
    return async (res) => {
      res.on('close', release);
      // Gone before the listener was there: 'close' will not come again.
      if (res.destroyed) release();
      try {
        await this.deps.hub.connect(view.row.id, res, { viewerId, after: resumeFrom, settings });
      } catch (err) {
        release();
        throw err;
      }
    };
  }

  /** `GET /v1/streams/{id}/chat/messages`: every message, hidden and deleted ones too, newest first. */
  async ownerList(account: Account, streamId: string, query: OwnerMessagesQuery): Promise<OwnerChatMessageList> {
    const stream = await ownStream(this.deps.sql, account.id, streamId);
    const limit = query.limit ?? 20;
    const rows = await q.ownerMessages(this.deps.sql, stream.id, limit + 1, query.starting_after);
    return { object: 'list', data: rows.slice(0, limit).map(presentOwnerMessage), has_more: rows.length > limit };
  }

  /** `DELETE /v1/streams/{id}/chat/messages/{message_id}`. */
  async ownerDelete(account: Account, streamId: string, messageId: string): Promise<ChatMessage> {
    const stream = await ownStream(this.deps.sql, account.id, streamId);
    return this.delete(stream.id, messageId, 'owner');
  }

  /** `POST /v1/embed/{id}/mod/delete`. */
  async modDelete(req: ChatRequest, token: string, messageId: string): Promise<ChatMessage> {
    const { view, moderator } = await this.moderator(req, token);
    return this.delete(view.row.id, messageId, moderator.id);
  }

  /** `POST /v1/embed/{id}/mod/ban`: a shadow ban made by the moderator. */
  async modBan(req: ChatRequest, body: ModBanBody): Promise<{ ban: Ban; created: boolean }> {
    const { view, moderator } = await this.moderator(req, body.session_token);
    // A channel's moderator bans on the channel (its moderation group); a stream's, on the stream.
    const scope = moderator.channelId === null ? streamScope(view.row.id) : channelScope(moderator.channelId);
    // The bans service checks that exactly one of the two was sent.
    return this.deps.bans.ban(scope, { viewer_id: body.viewer_id, message_id: body.message_id }, moderator.id);
  }

  /** `POST /v1/embed/{id}/mod/slow-mode`: the stream's slow mode, announced to every reader. */
  async modSlowMode(req: ChatRequest, token: string, seconds: number): Promise<EmbedChat> {
    const { view } = await this.moderator(req, token);
    return this.deps.sql.begin(async (tx) => {
      const row = await q.setSlowMode(tx, view.row.id, seconds);
      return this.settingsChanged(tx, row, view.open);
    });
  }

  /** Announces a stream's chat settings after they changed (owner's PATCH, a moderator's slow mode). */
  async settingsChanged(
    tx: Db,
    row: StreamRow,
    open = !FINISHED.includes(row.status) && row.player.enabled,
  ): Promise<EmbedChat> {
    const settings = embedChat(row, open, this.deps.beaconRate(row.id));
    await appendEvent(tx, { streamId: row.id, kind: 'settings', payload: settings, at: this.deps.clock.now() });
    return settings;
  }

  private async insertPost(tx: Db, row: StreamRow, poster: Poster, name: string, text: string): Promise<ChatMessage> {
    const { limits } = this.deps;
    // Taken first: the feed row's lock orders this stream's posts, so the counts below see every node's.
    const seq = await q.takeSeq(tx, row.id);
    const now = this.deps.clock.now();
    const slow = poster.role === 'moderator' ? 0 : row.chat.slow_mode_seconds;
    const recent = await q.recentPosts(
      tx,
      row.id,
      poster.viewerId,
      addSeconds(now, -limits.post_window_seconds),
      addSeconds(now, -Math.max(slow, limits.post_window_seconds)),
    );
    if (slow > 0 && recent.last && recent.last.getTime() > now.getTime() - slow * 1000) {
      const wait = Math.max(1, Math.ceil((recent.last.getTime() + slow * 1000 - now.getTime()) / 1000));
      throw new ApiError('chat_slow_mode', `Slow mode is on: one message every ${slow} s; send again in ${wait} s.`, {
        retry_after_seconds: wait,
        slow_mode_seconds: slow,
      });
    }
    if (recent.count >= limits.posts_per_window && recent.first) {
      const wait = Math.max(
        1,
        Math.ceil((recent.first.getTime() + limits.post_window_seconds * 1000 - now.getTime()) / 1000),
      );
      throw this.rateLimited('posts', wait);
    }
    // A household shares a network: it gets three viewers' worth before its anonymous posts wait.
    if (
      poster.network &&
      (await q.recentNetworkPosts(tx, row.id, poster.network, addSeconds(now, -limits.post_window_seconds))) >=
        3 * limits.posts_per_window
    ) {
      throw this.rateLimited('posts', limits.post_window_seconds);
    }
    const banned = await q.isBannedPoster(tx, scopesOf(row), poster.viewerId, poster.network);
    const message: q.MessageRow = {
      id: newId('msg_'),
      stream_id: row.id,
      seq,
      viewer_id: poster.viewerId,
      network: poster.network,
      name,
      verified: poster.verified,
      role: poster.role,
      text,
      hidden: banned,
      created_at: now,
      deleted_at: null,
      deleted_by: null,
    };
    await q.insertMessage(tx, message);
    const presented = presentMessage(message);
    // A banned viewer's post reaches their own feed only: to them it looks sent (a shadow ban).
    await appendEvent(tx, {
      streamId: row.id,
      seq,
      kind: 'message',
      payload: presented,
      only: banned ? poster.viewerId : null,
      at: now,
    });
    return presented;
  }

  private async delete(streamId: string, messageId: string, by: string): Promise<ChatMessage> {
    if (!MESSAGE_ID.test(messageId)) throw notFound('chat message on this stream');
    return this.deps.sql.begin(async (tx) => {
      const now = this.deps.clock.now();
      const deleted = await q.markDeleted(tx, streamId, messageId, now, by);
      if (!deleted) {
        const existing = await q.findMessage(tx, streamId, messageId);
        if (!existing) throw notFound('chat message on this stream');
        // Already deleted: the same answer again (a retried delete is not an error).
        return presentMessage(existing);
      }
      await appendEvent(tx, {
        streamId,
        kind: 'delete',
        payload: { object: 'chat_deletion', message_ids: [messageId], deleted_by: by },
        at: now,
      });
      return presentMessage(deleted);
    });
  }

  private async view(req: ChatRequest): Promise<StreamView> {
    const view = await this.deps.streams.view(req.streamId, req.address);
    if (!originAllowed(req.origin, view.row.player.allowed_domains, this.deps.ownOrigins)) {
      throw new ApiError(
        'origin_not_allowed',
        `This stream's chat may be used only from the sites its owner allowed (player.allowed_domains); ${req.origin} is not one of them.`,
        { origin: req.origin },
      );
    }
    return view;
  }

  /** A stream whose chat takes posts and reactions. */
  private async open(req: ChatRequest): Promise<StreamView> {
    const view = await this.view(req);
    if (FINISHED.includes(view.row.status))
      throw new ApiError('stream_ended', 'The stream is over: its chat is read-only.', { status: view.row.status });
    if (!view.open || !view.row.chat.enabled) throw new ApiError('chat_disabled', 'Chat is closed on this stream.');
    return view;
  }

  private async poster(
    row: StreamRow,
    body: { session_token?: string; client_id?: string },
    address: string,
  ): Promise<Poster> {
    if (body.session_token !== undefined) {
      const claims = await this.deps.sessions.claims(row.id, body.session_token);
      const moderator = await this.deps.moderators.active(row, claims.viewerId);
      return {
        viewerId: claims.viewerId,
        name: claims.name,
        verified: claims.name !== null,
        role: moderator ? 'moderator' : 'viewer',
        network: null,
      };
    }
    if (row.player.require_viewer_token)
      throw new ApiError(
        'viewer_token_required',
        'This stream is for members: open a session with your viewer token to take part in chat.',
      );
    if (!row.chat.anonymous_posting)
      throw new ApiError(
        'viewer_token_required',
        'Chat on this stream is for signed-in viewers: open a session with a viewer token.',
      );
    if (body.client_id === undefined)
      throw field('client_id', 'Send `client_id` (a random id your player keeps) or `session_token`.');
    return {
      viewerId: `anon:${body.client_id}`,
      name: null,
      verified: false,
      role: 'viewer',
      network: hashedNetworkOf(address, this.deps.networkKey),
    };
  }

  private async moderator(req: ChatRequest, token: string): Promise<{ view: StreamView; moderator: ActiveModerator }> {
    const view = await this.view(req);
    const claims = await this.deps.sessions.claims(view.row.id, token);
    const moderator = await this.deps.moderators.active(view.row, claims.viewerId);
    if (!moderator)
      throw new ApiError('not_a_moderator', 'This session is not (or no longer) a moderator of this stream.');
    return { view, moderator };
  }

  /**
   * The `nameKey`s of the stream's verified names, at most `VERIFIED_NAMES_TTL_MS` old: a crowd's
   * anonymous posts cost one read of them per stream per interval, not one each.
   */
  private async verifiedNames(streamId: string): Promise<Set<string>> {
    const now = this.deps.clock.now().getTime();
    const known = this.verified.get(streamId);
    if (known && now - known.at < VERIFIED_NAMES_TTL_MS) return known.keys;
    const keys = new Set((await q.verifiedNames(this.deps.sql, streamId)).map(nameKey));
    if (this.verified.size >= 1000)
      for (const [id, entry] of this.verified) if (now - entry.at >= VERIFIED_NAMES_TTL_MS) this.verified.delete(id);
    this.verified.set(streamId, { keys, at: now });
    return keys;
  }

  private shedLoad(): void {
    if (this.busy || this.postsInFlight >= this.deps.limits.max_posts_in_flight) {
      throw new ApiError('chat_busy', 'Chat is busy on this node; send again shortly.', {
        retry_after_seconds: BUSY_RETRY_SECONDS,
      });
    }
  }

  private limit(windows: FixedWindows, key: string, max: number): void {
    const wait = windows.over(key, max);
    if (wait !== null) throw this.rateLimited('posts', wait);
  }

  private rateLimited(what: 'posts' | 'reactions', wait: number): ApiError {
    const { limits } = this.deps;
    const max = what === 'posts' ? limits.posts_per_window : limits.reactions_per_window;
    return new ApiError(
      'chat_rate_limited',
      `At most ${max} ${what} per ${limits.post_window_seconds} s; send again in ${wait} s.`,
      { retry_after_seconds: wait, limit: max },
    );
  }
}
