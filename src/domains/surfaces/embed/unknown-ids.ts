import { createHmac } from 'node:crypto';
import { ApiError } from '../../../core/errors.js';
import type { Sql } from '../../../platform/db/connect.js';
import { SharedWindows } from '../../../platform/db/shared-windows.js';

export const UNKNOWN_IDS_PER_MINUTE = 60;

const refused = (retry: number) =>
  new ApiError('rate_limited', `Too many unknown stream ids from this address; retry after ${retry} s.`, {
    retry_after_seconds: retry,
  });

/**
 * Public reads name streams by id: an address that asks for more than 60 unknown ids in a minute
 * is refused (`429 rate_limited`) on every public endpoint until its minute is over, so ids
 * cannot be enumerated. Counted in PostgreSQL across every node and process (`SharedWindows`),
 * under a keyed hash of the address, and only for its minute.
 */
export class UnknownIdLimiter {
  private readonly windows: SharedWindows;

  constructor(
    sql: Sql,
    now: () => number,
    private readonly addressKey: Buffer,
    limit = UNKNOWN_IDS_PER_MINUTE,
  ) {
    this.windows = new SharedWindows({ sql, scope: 'unknown_ids', windowSeconds: 60, limit, now });
  }

  /** Throws `rate_limited` while the address is known to be over its limit (no query). */
  check(address: string): void {
    const retry = this.windows.blocked(this.key(address));
    if (retry !== null) throw refused(retry);
  }

  /** The address asked for an id that names no stream; throws `rate_limited` when that one is past the limit. */
  async record(address: string): Promise<void> {
    const retry = await this.windows.hit(this.key(address));
    if (retry !== null) throw refused(retry);
  }

  private key(address: string): string {
    return createHmac('sha256', this.addressKey).update(address).digest('base64url').slice(0, 22);
  }
}
