import { decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { ApiError } from '../../../core/errors.js';
import { CHANNEL_ID } from '../../streams/model.js';
import type { ViewerKeys } from './keys.js';

export const VIEWER_ROLES = ['viewer', 'moderator'] as const;
export type ViewerRole = (typeof VIEWER_ROLES)[number];

/** What a verified viewer token says. */
export interface ViewerClaims {
  keyId: string;
  /** The client's own viewer id (`sub`). */
  viewerId: string;
  name: string | null;
  role: ViewerRole;
  /** The token's `exp`. */
  expiresAt: Date;
}

/** Spec: a token is valid at most 24 hours ahead; a minute more for clocks that disagree. */
const MAX_LIFETIME_MS = 24 * 3600_000;
const CLOCK_SKEW_MS = 60_000;
const MAX_TOKEN_LENGTH = 8192;

const refuse = (why: string): ApiError => new ApiError('invalid_viewer_token', `Viewer token refused: ${why}.`);
/** Counted in characters (code points), as the spec's limits are. */
const chars = (s: string): number => [...s].length;

function optionalText(payload: JWTPayload, claim: string, max: number): string | null {
  const value = payload[claim];
  if (value === undefined) return null;
  if (!isText(value, max)) throw refuse(`claim \`${claim}\` must be a string of 1-${max} characters`);
  return value;
}

/** 1-max characters, none of them NUL (PostgreSQL text cannot hold it). */
const isText = (value: unknown, max: number): value is string =>
  typeof value === 'string' && chars(value) >= 1 && chars(value) <= max && !value.includes('\u0000');

/**
 * Checks a viewer token for a stream (spec, Authentication 6): HS256 only, signed with an active
 * viewer key (`kid`) of the stream's account, `exp` in the future and at most 24 hours ahead, `sub`
 * 1-64 characters, `name` 1-40, `role` viewer or moderator, `stream` (when present) this stream or
 * its channel.
 * Every refusal is `401 invalid_viewer_token` saying why. An unknown key, a deleted one and another
 * account's key get the same answer: a caller learns nothing about other accounts.
 */
export async function verifyViewerToken(
  token: string,
  stream: { id: string; account_id: string; channel_id: string | null },
  keys: ViewerKeys,
  now: Date,
): Promise<ViewerClaims> {
  if (token.length > MAX_TOKEN_LENGTH) throw refuse(`it is longer than ${MAX_TOKEN_LENGTH} characters`);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw refuse('it is not a signed JWT (header.payload.signature, base64url)');
  }
  if (header.alg !== 'HS256')
    throw refuse(`algorithm ${JSON.stringify(header.alg ?? null)} is not accepted; sign with HS256`);
  const keyId = header.kid;
  if (typeof keyId !== 'string' || keyId === '')
    throw refuse('the header has no `kid`; name the viewer key (vk_...) that signed it');
  const key = keyId.length <= 100 ? await keys.find(keyId) : null;
  if (!key || key.account_id !== stream.account_id)
    throw refuse(`key ${JSON.stringify(keyId.slice(0, 100))} is not an active viewer key of this stream's account`);

  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(key.secret), {
      algorithms: ['HS256'],
      currentDate: now,
      requiredClaims: ['sub', 'exp'],
    }));
  } catch (err) {
    if (err instanceof errors.JWSSignatureVerificationFailed)
      throw refuse(`the signature does not match viewer key ${keyId}`);
    if (err instanceof errors.JWTExpired) throw refuse('it has expired (`exp` is past)');
    if (err instanceof errors.JWTClaimValidationFailed)
      throw refuse(`claim \`${err.claim}\`: ${err.reason === 'missing' ? 'required' : err.message}`);
    throw refuse(`it could not be read (${(err as Error).message})`);
  }

  // Compared as a number before it becomes a Date: an exp such as 1e20 is past the last Date
  // (an Invalid Date compares false with everything and failed later as a 500, issue 27).
  const expMs = (payload.exp as number) * 1000;
  if (expMs > now.getTime() + MAX_LIFETIME_MS + CLOCK_SKEW_MS) throw refuse('`exp` is more than 24 hours ahead');
  const expiresAt = new Date(expMs);
  const viewerId = payload.sub;
  if (!isText(viewerId, 64)) throw refuse('claim `sub` must be a string of 1-64 characters');
  const name = optionalText(payload, 'name', 40);
  const role = payload.role ?? 'viewer';
  if (!VIEWER_ROLES.includes(role as ViewerRole)) throw refuse('claim `role` must be `viewer` or `moderator`');
  const scope = payload.stream;
  if (scope !== undefined && scope !== stream.id && (stream.channel_id === null || scope !== stream.channel_id)) {
    const named = JSON.stringify(String(scope).slice(0, 100));
    throw refuse(
      typeof scope === 'string' && CHANNEL_ID.test(scope)
        ? `the token is for channel ${named}, and this stream is not in that channel`
        : `the token is for ${named}, not this stream`,
    );
  }
  return { keyId, viewerId, name, role: role as ViewerRole, expiresAt };
}
