import { createHash, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../../config/secrets.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import type { Db } from '../../../platform/db/connect.js';
import { currentAccess } from './queries.js';

/** Says what the token is wherever it shows up (a shell history, a password manager). */
export const OPERATOR_TOKEN_PREFIX = 'svcop_';
/** How long a node trusts the generation it read: a rotation reaches every node within this. */
export const ACCESS_REFRESH_MS = 5000;

/**
 * The operator token of a generation: derived from the signing key, so it is never stored and
 * survives restarts; a new generation (`svc dashboard --rotate`) is a new token.
 */
export const operatorToken = (signingKey: string, generation: number): string =>
  OPERATOR_TOKEN_PREFIX + deriveKey(signingKey, `svc operator dashboard v1 ${generation}`).toString('base64url');

/** The dashboard's address with the token in the fragment, which browsers never send. */
export const dashboardUrl = (playerUrl: string, token: string): string => `${playerUrl}/dashboard#token=${token}`;

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const digest = (s: string): Buffer => createHash('sha256').update(s).digest();
const REFUSED =
  'Send the operator token: `Authorization: Bearer svcop_...` (`svc dashboard` prints the dashboard address with it).';

/**
 * Checks the operator token of a request. The generation is read from the database at most every
 * ACCESS_REFRESH_MS; while the database does not answer, the last one read still holds, so the
 * dashboard can show that the database is down.
 */
export class DashboardAccess {
  private known: { expected: Buffer; readAt: number } | null = null;
  private reading: Promise<Buffer> | null = null;

  constructor(private readonly deps: { sql: Db; clock: Clock; signingKey: string }) {}

  /** Throws `401 unauthorized` unless `authorization` carries the current token. */
  async check(authorization: string | undefined): Promise<void> {
    const token = BEARER.exec(authorization ?? '')?.[1];
    if (!token || !token.startsWith(OPERATOR_TOKEN_PREFIX) || token.length > 200)
      throw new ApiError('unauthorized', REFUSED);
    const expected = await this.expected();
    if (!timingSafeEqual(digest(token), expected))
      throw new ApiError(
        'unauthorized',
        'The operator token is not valid (wrong, or rotated with `svc dashboard --rotate`): run `svc dashboard` for the current address.',
      );
  }

  private async expected(): Promise<Buffer> {
    const now = this.deps.clock.now().getTime();
    if (this.known && now - this.known.readAt < ACCESS_REFRESH_MS) return this.known.expected;
    this.reading ??= currentAccess(this.deps.sql)
      .then(({ generation }) => {
        const expected = digest(operatorToken(this.deps.signingKey, generation));
        this.known = { expected, readAt: this.deps.clock.now().getTime() };
        return expected;
      })
      .finally(() => (this.reading = null));
    try {
      return await this.reading;
    } catch (err) {
      if (this.known) return this.known.expected;
      throw err;
    }
  }
}
