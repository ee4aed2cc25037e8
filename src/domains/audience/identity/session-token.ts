import { errors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { ApiError } from '../../../core/errors.js';
import { VIEWER_ROLES, type ViewerRole } from './viewer-token.js';
import { deriveKey } from '../../../config/secrets.js';

/** A session lasts at most this (spec: "A session opened by a token lasts up to 24 hours"). */
export const SESSION_HOURS = 24;

/** What a session token carries: enough to renew playback and to report attendance without a query. */
export interface SessionClaims {
  sessionId: string;
  streamId: string;
  viewerId: string;
  name: string | null;
  role: ViewerRole;
  /** The viewer token's `exp`: personal playback is renewed until then. */
  accessUntil: Date;
  expiresAt: Date;
}

/** The appliance's session-signing secret, derived so that secrets.json needs no new key. */
export const sessionSecret = (signingKey: string): Uint8Array =>
  new Uint8Array(deriveKey(signingKey, 'svc viewer session v1'));

const refuse = (why: string): ApiError =>
  new ApiError('invalid_viewer_token', `Session token refused: ${why}; open a new session with a viewer token.`);

/**
 * Session tokens: JWTs (HS256) the appliance signs itself. They are self-contained, so a deleted
 * viewer key does not end sessions already open, and beats and renewals cost no database read.
 */
export class SessionTokens {
  /**
   * Tokens already verified, so a player's beats every 30 s cost a map lookup, not an HMAC check
   * through WebCrypto (`npm run bench -- identity`: 260 → 78 µs of CPU per beat). Bounded: the oldest
   * entry goes first.
   */
  private readonly verified = new Map<string, SessionClaims>();

  constructor(
    private readonly secret: Uint8Array,
    private readonly maxVerified = 20_000,
  ) {}

  sign(c: SessionClaims): Promise<string> {
    return new SignJWT({
      vsn: c.sessionId,
      str: c.streamId,
      name: c.name,
      role: c.role,
      ax: Math.floor(c.accessUntil.getTime() / 1000),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(c.viewerId)
      .setExpirationTime(Math.floor(c.expiresAt.getTime() / 1000))
      .sign(this.secret);
  }

  /**
   * The claims of a session token of `streamId`, `expired` when its 24 hours are over (its access
   * ended with it: the viewer token's `exp` is never later). Anything else wrong is
   * `401 invalid_viewer_token`.
   */
  async verify(token: string, streamId: string, now: Date): Promise<SessionClaims & { expired: boolean }> {
    if (token.length > 4096) throw refuse('too long');
    const known = this.verified.get(token);
    if (known && known.expiresAt > now) {
      if (known.streamId !== streamId) throw refuse('it is a session of another stream');
      return { ...known, expired: false };
    }
    let payload: JWTPayload;
    let expired = false;
    try {
      ({ payload } = await jwtVerify(token, this.secret, {
        algorithms: ['HS256'],
        currentDate: now,
        requiredClaims: ['sub', 'exp'],
      }));
    } catch (err) {
      // jose checks the signature before the claims: an expired token's payload is ours.
      if (!(err instanceof errors.JWTExpired)) throw refuse('it was not issued by this service');
      payload = err.payload;
      expired = true;
    }
    const { vsn, str, name, role, ax, sub, exp } = payload as Record<string, unknown>;
    if (
      typeof vsn !== 'string' ||
      typeof str !== 'string' ||
      typeof sub !== 'string' ||
      typeof ax !== 'number' ||
      typeof exp !== 'number' ||
      !VIEWER_ROLES.includes(role as ViewerRole)
    ) {
      throw refuse('it was not issued by this service');
    }
    const claims: SessionClaims = {
      sessionId: vsn,
      streamId: str,
      viewerId: sub,
      name: typeof name === 'string' ? name : null,
      role: role as ViewerRole,
      accessUntil: new Date(ax * 1000),
      expiresAt: new Date(exp * 1000),
    };
    if (!expired) {
      if (this.verified.size >= this.maxVerified) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, claims);
    }
    if (str !== streamId) throw refuse('it is a session of another stream');
    return { ...claims, expired };
  }
}
