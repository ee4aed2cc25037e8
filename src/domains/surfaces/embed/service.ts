import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import { networkOf } from '../../../core/network.js';
import { iso } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { CdnAddresses } from '../../ledger/cdn/addresses.js';
import {
  CHANNEL_ID,
  defaultPlaybackExpiry,
  REPLAY_MAX_ATTEMPTS,
  STREAM_ID,
  type LatencyMode,
  type StreamRow,
} from '../../streams/model.js';
import { findChannelStream, findPublicStream } from './queries.js';
import { type BeatQuery, type ChannelEmbed, type Embed, type EmbedStatus } from './schemas.js';
import { UnknownIdLimiter } from './unknown-ids.js';
import type { RenewedPlayback, ViewerSession } from '../../audience/identity/schemas.js';
import type { IdentityService, StreamView } from '../../audience/identity/service.js';
import type { SessionClaims } from '../../audience/identity/session-token.js';
import type { BeatState } from '../../audience/viewers/counter.js';
import type { AttendanceViewer } from '../../audience/attendance/recorder.js';

/** Seconds between embed reads a player is told to wait (spec: 5 pending, 60 live). */
export const POLL_PENDING_SECONDS = 5;
export const POLL_LIVE_SECONDS = 60;
/**
 * A channel page asks again this often while its stream is live: the stream's own end is seen by
 * the player sooner (its playlist ends); a new pending stream may wait this long to be shown.
 */
export const POLL_CHANNEL_LIVE_SECONDS = 30;
/**
 * A finished stream whose replay is awaited (its recording is being made) or offered: asked about
 * again, so the page notices the replay appearing and, once the recording is deleted, leaving.
 */
export const POLL_REPLAY_SECONDS = 30;
/** A replay's shared address is signed for the hour after the next full hour: the same for every viewer for an hour, so caches keep working. */
const REPLAY_SIGNED_MS = 3_600_000;
/** A stream is read from the database at most once per second per node: a crowd's beats cost no queries. */
const STREAM_TTL_MS = 1000;

/** What the public endpoints report to attendance (token viewers only). */
export interface EmbedAttendance {
  /** A session was opened: the viewer is listed (with nothing watched yet). */
  seen(viewer: AttendanceViewer, atMs: number): void;
  /** A beat of a session: playing time between its reports is credited. */
  beat(viewer: AttendanceViewer, sessionId: string, st: BeatState, atMs: number): void;
}

/** What the public endpoints need from viewer counting. */
export interface EmbedViewers {
  beacon(streamId: string): { rate: number; interval_seconds: number };
  /** Null when taken; else the seconds after which the address's excess new viewers may try again. */
  beat(streamId: string, beat: Omit<BeatQuery, 't'>, network: string): number | null;
  /** The minutes that count towards `player.watch_minutes_limit`. */
  limitMinutes(streamId: string): Promise<number>;
}

export interface EmbedDeps {
  sql: Sql;
  clock: Clock;
  cdn: CdnAddresses;
  viewers: EmbedViewers;
  identity: IdentityService;
  attendance: EmbedAttendance;
  /** Keys the hashes under which addresses are counted (`UnknownIdLimiter`). */
  addressKey: Buffer;
}

interface Cached {
  row: StreamRow;
  closed: boolean;
  fetchedAt: number;
}

/** The player was closed by its owner: switched off, past `closed_at`, or out of watch minutes. */
async function isClosed(row: StreamRow, now: Date, viewers: EmbedViewers): Promise<boolean> {
  const { enabled, closed_at: closedAt, watch_minutes_limit: limit } = row.player;
  if (!enabled) return true;
  if (closedAt && new Date(closedAt) <= now) return true;
  return limit !== null && (await viewers.limitMinutes(row.id)) >= limit;
}

/** The replay is offered: asked for, made, and its recording still there (deleting it ends the replay). */
const replayOffered = (row: StreamRow): boolean =>
  row.status === 'ended' && row.replay && row.recording_status === 'ready' && row.replay_made_at !== null;

/** A replay may still come: asked for and its recording on the way, or ready with the replay not made yet (three tries). */
const replayAwaited = (row: StreamRow): boolean =>
  row.status === 'ended' &&
  row.replay &&
  (row.recording_status === 'recording' ||
    row.recording_status === 'processing' ||
    (row.recording_status === 'ready' && row.replay_made_at === null && row.replay_attempts < REPLAY_MAX_ATTEMPTS));

function embedStatus(row: StreamRow, closed: boolean): EmbedStatus {
  if (closed) return 'closed';
  if (row.status === 'expired' || row.status === 'cancelled') return 'unavailable';
  return row.status;
}

/** The public side of a stream: the embed read and viewer beats (no key, any origin). */
export class EmbedService {
  private readonly streams = new Map<string, Cached>();
  private readonly channels = new Map<
    string,
    { found: { name: string | null; stream_id: string | null }; fetchedAt: number }
  >();
  readonly limiter: UnknownIdLimiter;

  constructor(private readonly deps: EmbedDeps) {
    this.limiter = new UnknownIdLimiter(deps.sql, () => deps.clock.now().getTime(), deps.addressKey);
  }

  /** The embed read, with what the hosted page needs beside it (never part of the read itself). */
  async read(
    id: string,
    address: string,
  ): Promise<{ embed: Embed; allowedDomains: string[] | null; latencyMode: LatencyMode }> {
    const { row, closed } = await this.stream(id, address);
    const status = embedStatus(row, closed);
    const open = status === 'pending' || status === 'live';
    const replay = !closed && replayOffered(row);
    const membersOnly = row.player.require_viewer_token;
    const expiresAt = membersOnly
      ? null
      : status === 'live'
        ? defaultPlaybackExpiry(row)
        : replay
          ? this.replayExpiry()
          : null;
    const finished = row.status !== 'pending' && row.status !== 'live';
    const waiting = replay || (!closed && replayAwaited(row));
    const embed: Embed = {
      object: 'embed',
      id: row.id,
      status,
      title: row.player.show_name ? row.name : null,
      // One URL for every viewer (fixed expiry): the CDN caches it, and no viewer gets a personal address.
      // Its own scope: closing the player stops it at the CDN, not only here (docs/decisions.md).
      playback_url:
        expiresAt &&
        (replay ? this.deps.cdn.replay(row.id, expiresAt) : this.deps.cdn.publicPlayback(row.id, expiresAt)),
      playback_url_expires_at: iso(expiresAt),
      replay,
      went_live_at: iso(row.went_live_at),
      ended_at: iso(row.ended_at),
      // A closed player of a stream that may still go on is asked about again: its owner can reopen it.
      poll_after_seconds: waiting
        ? POLL_REPLAY_SECONDS
        : finished
          ? null
          : status === 'pending'
            ? POLL_PENDING_SECONDS
            : POLL_LIVE_SECONDS,
      beacon: open || replay ? this.deps.viewers.beacon(row.id) : null,
      access: membersOnly ? 'viewer_token' : 'public',
      poster_url: this.deps.cdn.thumbnail(row.id),
    };
    return { embed, allowedDomains: row.player.allowed_domains, latencyMode: row.latency_mode };
  }

  /** The channel embed read, with what the channel page needs beside it (the shown stream's, as `read`). */
  async channelPage(
    id: string,
    address: string,
  ): Promise<{ channel: ChannelEmbed; allowedDomains: string[] | null; latencyMode: LatencyMode }> {
    const { found, stream } = await this.channel(id, address);
    return {
      channel: this.channelEmbed(id, found.name, stream?.embed ?? null, stream?.latencyMode ?? null),
      allowedDomains: stream?.allowedDomains ?? null,
      latencyMode: stream?.latencyMode ?? 'standard',
    };
  }

  /** The channel embed read: the embed read of the stream its page shows (see `findChannelStream`). */
  async readChannel(id: string, address: string): Promise<ChannelEmbed> {
    return (await this.channelPage(id, address)).channel;
  }

  private channelEmbed(
    id: string,
    name: string | null,
    stream: Embed | null,
    latencyMode: LatencyMode | null,
  ): ChannelEmbed {
    return {
      object: 'channel_embed',
      id,
      name,
      stream,
      latency_mode: latencyMode,
      poll_after_seconds: stream?.status === 'live' ? POLL_CHANNEL_LIVE_SECONDS : POLL_PENDING_SECONDS,
    };
  }

  private async channel(id: string, address: string) {
    this.limiter.check(address);
    const nowMs = this.deps.clock.now().getTime();
    let cached = this.channels.get(id);
    if (!cached || nowMs - cached.fetchedAt >= STREAM_TTL_MS) {
      const found = CHANNEL_ID.test(id) ? await findChannelStream(this.deps.sql, id) : null;
      if (!found) {
        this.channels.delete(id);
        await this.limiter.record(address);
        throw new ApiError('not_found', 'No such channel.');
      }
      if (this.channels.size >= 10_000) evictStale(this.channels, nowMs);
      cached = { found, fetchedAt: nowMs };
      this.channels.set(id, cached);
    }
    const { stream_id } = cached.found;
    return { found: cached.found, stream: stream_id === null ? null : await this.read(stream_id, address) };
  }

  /**
   * Counted while the stream is pending or live and its player open; otherwise accepted and
   * dropped. With `t` (a session token of this stream, else `401 invalid_viewer_token`), also
   * reported to attendance.
   */
  async beat(id: string, beat: BeatQuery, address: string): Promise<void> {
    const view = await this.view(id, address);
    const session = beat.t === undefined ? null : await this.deps.identity.beatSession(view.row.id, beat.t);
    if (!view.open && !view.replay) return;
    const retry = this.deps.viewers.beat(view.row.id, { s: beat.s, st: beat.st, u: beat.u }, networkOf(address));
    if (retry !== null)
      throw new ApiError(
        'rate_limited',
        `Too many new viewers from this address; not counted. Retry after ${retry} s.`,
        { retry_after_seconds: retry },
      );
    if (session) {
      const viewer = { streamId: view.row.id, viewerId: session.viewerId, name: session.name };
      this.deps.attendance.beat(viewer, session.sessionId, beat.st, this.deps.clock.now().getTime());
    }
  }

  /** A viewer token → a session (and, on members-only streams, a personal playback address). */
  async openSession(id: string, viewerToken: string, address: string): Promise<ViewerSession> {
    const view = await this.view(id, address);
    return this.seen(view, await this.deps.identity.openSession(view, viewerToken));
  }

  /** A moderator link's token → a moderator session (its beats count for attendance like any session's). */
  async openModeratorSession(id: string, moderatorToken: string, address: string): Promise<ViewerSession> {
    const view = await this.view(id, address);
    return this.seen(view, await this.deps.identity.openModeratorSession(view, moderatorToken));
  }

  /** A member's next personal playback address. */
  async renewPlayback(id: string, sessionToken: string, address: string): Promise<RenewedPlayback> {
    return this.deps.identity.renew(await this.view(id, address), sessionToken);
  }

  private seen(
    view: StreamView,
    { session, claims }: { session: ViewerSession; claims: SessionClaims },
  ): ViewerSession {
    if (view.open || view.replay)
      this.deps.attendance.seen(
        { streamId: view.row.id, viewerId: claims.viewerId, name: claims.name },
        this.deps.clock.now().getTime(),
      );
    return session;
  }

  /** The stream as the public endpoints see it (cached a second per node). */
  async view(id: string, address: string): Promise<StreamView> {
    const { row, closed } = await this.stream(id, address);
    return {
      row,
      open: !closed && (row.status === 'pending' || row.status === 'live'),
      replay: !closed && replayOffered(row),
    };
  }

  private replayExpiry(): Date {
    const now = this.deps.clock.now().getTime();
    return new Date((Math.floor(now / REPLAY_SIGNED_MS) + 2) * REPLAY_SIGNED_MS);
  }

  private async stream(id: string, address: string): Promise<Cached> {
    this.limiter.check(address);
    const nowMs = this.deps.clock.now().getTime();
    const cached = this.streams.get(id);
    if (cached && nowMs - cached.fetchedAt < STREAM_TTL_MS) return cached;
    const row = STREAM_ID.test(id) ? await findPublicStream(this.deps.sql, id) : null;
    if (!row) {
      this.streams.delete(id);
      await this.limiter.record(address);
      throw new ApiError('not_found', 'No such stream.');
    }
    const fresh: Cached = {
      row,
      closed: await isClosed(row, this.deps.clock.now(), this.deps.viewers),
      fetchedAt: nowMs,
    };
    if (this.streams.size >= 10_000) evictStale(this.streams, nowMs);
    this.streams.set(id, fresh);
    return fresh;
  }
}

/** Bounds a per-node cache: entries past their second go when it is full. */
function evictStale(cache: Map<string, { fetchedAt: number }>, nowMs: number): void {
  for (const [id, entry] of cache) if (nowMs - entry.fetchedAt >= STREAM_TTL_MS) cache.delete(id);
}
