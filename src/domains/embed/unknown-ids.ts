import { ApiError } from '../../core/errors.js';

export const UNKNOWN_IDS_PER_MINUTE = 60;
const WINDOW_MS = 60_000;

/**
 * Public reads name streams by id: an address that asks for more than 60 unknown ids in a minute
 * is refused (`429 rate_limited`) on every public endpoint until its minute is over, so ids
 * cannot be enumerated. Addresses live in memory only, and only for their minute.
 */
export class UnknownIdLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number, private readonly limit = UNKNOWN_IDS_PER_MINUTE) {}

  /** Throws `rate_limited` while the address is over its limit. */
  check(address: string): void {
    const window = this.current(address);
    if (window && window.count >= this.limit) {
      const retry = Math.max(1, Math.ceil((window.start + WINDOW_MS - this.now()) / 1000));
      throw new ApiError('rate_limited', `Too many unknown stream ids from this address; retry after ${retry} s.`, { retry_after_seconds: retry });
    }
  }

  /** The address asked for an id that names no stream. */
  record(address: string): void {
    const window = this.current(address);
    if (window) window.count += 1;
    else this.windows.set(address, { start: this.now(), count: 1 });
    if (this.windows.size > 10_000) this.prune();
  }

  private current(address: string): { start: number; count: number } | undefined {
    const window = this.windows.get(address);
    if (window && this.now() - window.start >= WINDOW_MS) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }

  private prune(): void {
    const cutoff = this.now() - WINDOW_MS;
    for (const [address, window] of this.windows) if (window.start <= cutoff) this.windows.delete(address);
  }
}
