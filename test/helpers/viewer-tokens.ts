import { SignJWT, type JWTPayload } from 'jose';

/** A viewer key as `svc viewer-keys create` hands it out. */
export interface ViewerKey {
  id: string;
  secret: string;
}

/**
 * A viewer token as a client's site signs it (HS256 with the key secret, `kid` = the key id).
 * `exp` defaults to an hour after `now`; pass `exp: null` to leave it out.
 */
export async function viewerToken(
  key: ViewerKey,
  now: Date,
  claims: Omit<JWTPayload, 'exp'> & { exp?: number | null } = {},
  header: { alg?: string; kid?: string | null } = {},
): Promise<string> {
  const { exp = Math.floor(now.getTime() / 1000) + 3600, ...rest } = claims;
  const jwt = new SignJWT({ sub: 'pupil-1', ...rest });
  const kid = header.kid === undefined ? key.id : header.kid;
  jwt.setProtectedHeader({ alg: header.alg ?? 'HS256', ...(kid === null ? {} : { kid }) });
  if (exp !== null) jwt.setExpirationTime(exp);
  return jwt.sign(new TextEncoder().encode(key.secret));
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An unsigned token (`alg: none`), as an attacker would send it. */
export const unsignedToken = (header: Record<string, unknown>, payload: Record<string, unknown>): string =>
  `${b64(header)}.${b64(payload)}.`;

/** The token with its payload replaced and the old signature kept. */
export function tamper(token: string, payload: Record<string, unknown>): string {
  const [header, , signature] = token.split('.');
  return `${header}.${b64(payload)}.${signature}`;
}
