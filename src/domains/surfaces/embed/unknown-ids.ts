import { ApiError } from '../../../core/errors.js';
import { FixedWindows } from '../../../core/fixed-windows.js';

export const UNKNOWN_IDS_PER_MINUTE = 60;

/**
 * Public reads name streams by id: an address that asks for more than 60 unknown ids in a minute
 * is refused (`429 rate_limited`) on every public endpoint until its minute is over, so ids
 * cannot be enumerated. Addresses live in memory only, and only for their minute.
 */
export class UnknownIdLimiter {
  private readonly windows: FixedWindows;

  constructor(
    now: () => number,
    private readonly limit = UNKNOWN_IDS_PER_MINUTE,
  ) {
    this.windows = new FixedWindows(now, 60_000);
  }

  /** Throws `rate_limited` while the address is over its limit. */
  check(address: string): void {
    const retry = this.windows.over(address, this.limit);
    if (retry !== null)
      throw new ApiError('rate_limited', `Too many unknown stream ids from this address; retry after ${retry} s.`, {
        retry_after_seconds: retry,
      });
  }

  /** The address asked for an id that names no stream. */
  record(address: string): void {
    this.windows.add(address);
  }
}
