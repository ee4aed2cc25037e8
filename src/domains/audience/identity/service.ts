import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { BansService } from '../bans/service.js';
import type { CdnAddresses } from '../../ledger/cdn/addresses.js';
import type { ModeratorRow, ModeratorsService } from '../moderators/service.js';
import type { StreamRow } from '../../streams/model.js';
import type { ViewerKeys } from './keys.js';
import * as q from './queries.js';
import type { RenewedPlayback, ViewerSession } from './schemas.js';
import { SESSION_HOURS, type SessionClaims, type SessionTokens } from './session-token.js';
import { verifyViewerToken } from './viewer-token.js';

/**
 * How long a session's row is kept after the session ended (24 hours after it opened at most).
 * Nothing reads the rows (tokens are self-contained; attendance, bans and moderators have tables of
 * their own): they are kept a week for an operator asking who opened a session with which key.
 */
export const VIEWER_SESSION_DAYS = 7;

export interface IdentityDeps {
  sql: Sql;
  clock: Clock;
  cdn: CdnAddresses;
  keys: ViewerKeys;
  tokens: SessionTokens;
  bans: BansService;
  moderators: ModeratorsService;
  /** How long a personal playback address is valid (spec: five minutes). */
  personalPlaybackSeconds: number;
  /** How often a player with a session reports for attendance (spec: 30 s). */
  attendanceIntervalSeconds: number;
}

/** Where a stream stands for a viewer: the embed service knows (its cached read). */
export interface StreamView {
  row: StreamRow;
  /** Pending or live, with its player open: beats are counted, and members get addresses (video comes when live). */
  open: boolean;
  /** Finished, its player open, and its replay offered (docs/decisions.md, "Replays (issue 33)"): beats count, and members get replay addresses. */
  replay: boolean;
}

const removed = () => new ApiError('viewer_removed', 'You were removed from this stream by its owner.');
const ended = (at: Date) =>
  new ApiError(
    'viewer_access_ended',
    `Your access to this stream ended at ${at.toISOString()} (the viewer token's exp); sign in again on the site that sent you here.`,
  );

/**
 * Viewer identity (docs/decisions.md, Viewer identity): sessions opened with viewer tokens,
 * members' personal playback addresses and their renewal, and the session tokens players send
 * on beats. Bans follow the token's `sub`; a session's role is `moderator` exactly when it carries a
 * moderator (moderators/service.ts).
 */
export class IdentityService {
  constructor(private readonly deps: IdentityDeps) {}

  async openSession(view: StreamView, viewerToken: string): Promise<{ session: ViewerSession; claims: SessionClaims }> {
    const { row } = view;
    const now = this.deps.clock.now();
    const token = await verifyViewerToken(viewerToken, row, this.deps.keys, now);
    if (row.player.require_viewer_token && (await this.deps.bans.isBanned(row, token.viewerId))) throw removed();
    // A moderator-role token signs in for a day, on the stream's channel when it is in one (a removed
    // moderator stays removed); any token of a viewer who is an active moderator of the stream or its
    // channel (an invitation, an earlier sign-in) opens a moderator session too.
    const moderator =
      token.role === 'moderator'
        ? await this.deps.moderators.signIn(row, token.viewerId, token.name)
        : await this.deps.moderators.forSession(row, token.viewerId);
    const expiresAt = addSeconds(now, SESSION_HOURS * 3600);
    return this.start(
      view,
      { viewerId: token.viewerId, name: token.name, accessUntil: token.expiresAt, expiresAt, keyId: token.keyId },
      moderator,
      now,
    );
  }

  /**
   * A moderator link's token → a moderator session for its moderator (viewer id and name from the
   * invitation), for 24 hours at most and never past the invitation's `active_until`.
   */
  async openModeratorSession(
    view: StreamView,
    moderatorToken: string,
  ): Promise<{ session: ViewerSession; claims: SessionClaims }> {
    const now = this.deps.clock.now();
    const moderator = await this.deps.moderators.byLink(view.row, moderatorToken);
    const until = new Date(Math.min(addSeconds(now, SESSION_HOURS * 3600).getTime(), moderator.active_until.getTime()));
    // No viewer key signed anything here: the session records the moderator id as what opened it.
    return this.start(
      view,
      {
        viewerId: moderator.viewer_id,
        name: moderator.name,
        accessUntil: until,
        expiresAt: until,
        keyId: moderator.id,
      },
      moderator,
      now,
    );
  }

  /** The session of a verified viewer: stored, signed, with its personal address on members-only streams. Role moderator iff `moderator`. */
  private async start(
    view: StreamView,
    who: { viewerId: string; name: string | null; accessUntil: Date; expiresAt: Date; keyId: string },
    moderator: ModeratorRow | null,
    now: Date,
  ): Promise<{ session: ViewerSession; claims: SessionClaims }> {
    const { row } = view;
    const claims: SessionClaims = {
      sessionId: newId('vsn_'),
      streamId: row.id,
      viewerId: who.viewerId,
      name: who.name,
      role: moderator ? 'moderator' : 'viewer',
      accessUntil: who.accessUntil,
      expiresAt: who.expiresAt,
    };
    await q.insertSession(this.deps.sql, {
      id: claims.sessionId,
      stream_id: row.id,
      account_id: row.account_id,
      viewer_id: claims.viewerId,
      name: claims.name,
      role: claims.role,
      key_id: who.keyId,
      created_at: now,
      expires_at: claims.expiresAt,
      access_until: claims.accessUntil,
    });
    const playback =
      row.player.require_viewer_token && (view.open || view.replay) ? this.address(claims, now, view.replay) : null;
    const session: ViewerSession = {
      object: 'viewer_session',
      id: claims.sessionId,
      stream_id: row.id,
      viewer: { id: claims.viewerId, name: claims.name, role: claims.role },
      moderator: moderator && {
        object: 'moderator',
        id: moderator.id,
        viewer_id: moderator.viewer_id,
        name: moderator.name,
        active_until: moderator.active_until.toISOString(),
      },
      playback: playback && { url: playback.url, expires_at: playback.expires_at },
      session_token: await this.deps.tokens.sign(claims),
      expires_at: claims.expiresAt.toISOString(),
      access_until: claims.accessUntil.toISOString(),
      beacon: view.open || view.replay ? { rate: 1, interval_seconds: this.deps.attendanceIntervalSeconds } : null,
    };
    return { session, claims };
  }

  /**
   * A new personal address for a member's session, until the viewer token's `exp`; refused to a
   * banned viewer (video stops when the current address runs out).
   */
  async renew(view: StreamView, sessionToken: string): Promise<RenewedPlayback> {
    const { row } = view;
    const now = this.deps.clock.now();
    const claims = await this.deps.tokens.verify(sessionToken, row.id, now);
    if (!row.player.require_viewer_token) {
      throw new ApiError(
        'invalid_request',
        "This stream is public: play the embed read's `playback_url`; personal addresses are for members-only streams.",
        { field: 'session_token' },
      );
    }
    if (await this.deps.bans.isBanned(row, claims.viewerId)) throw removed();
    if (claims.expired || claims.accessUntil <= now) throw ended(claims.accessUntil);
    if (!view.open && !view.replay)
      throw new ApiError(
        'stream_ended',
        'The stream is over (or its player closed): there is no video to sign an address for.',
        { status: row.status },
      );
    return this.address(claims, now, view.replay);
  }

  /** The session of a beat's `t`; an expired session is refused like a forged one (its player opens a new one). */
  async beatSession(streamId: string, sessionToken: string): Promise<SessionClaims> {
    const claims = await this.deps.tokens.verify(sessionToken, streamId, this.deps.clock.now());
    if (claims.expired)
      throw new ApiError(
        'invalid_viewer_token',
        'Session token refused: the session has ended (24 hours at most); open a new session with a viewer token.',
      );
    return claims;
  }

  /**
   * Deletes the rows of sessions that ended more than VIEWER_SESSION_DAYS ago, a batch per
   * statement so that a large backlog never holds many row locks at once; stops between batches
   * when the job's run is abandoned. Returns how many went.
   */
  async purgeSessions(signal?: AbortSignal, batch = 5000): Promise<number> {
    const before = addSeconds(this.deps.clock.now(), -VIEWER_SESSION_DAYS * 86_400);
    let total = 0;
    for (;;) {
      const n = await q.purgeSessions(this.deps.sql, before, batch);
      total += n;
      if (n < batch || signal?.aborted) return total;
    }
  }

  /** `replay`: the address of the stream's replay instead of its live video. */
  private address(claims: SessionClaims, now: Date, replay: boolean): RenewedPlayback {
    // Whole seconds: the signature carries its expiry in Unix seconds.
    const until = Math.min(addSeconds(now, this.deps.personalPlaybackSeconds).getTime(), claims.accessUntil.getTime());
    const expiresAt = new Date(Math.floor(until / 1000) * 1000);
    return {
      object: 'playback',
      url: replay
        ? this.deps.cdn.replay(claims.streamId, expiresAt, claims.sessionId)
        : this.deps.cdn.personalPlayback(claims.streamId, claims.sessionId, expiresAt),
      expires_at: expiresAt.toISOString(),
    };
  }
}
