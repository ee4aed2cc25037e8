import type { Logger } from './logger.js';

/**
 * A periodic task that depends on something that may be away for a while (an edge's origin): the
 * first failure is a warning, the following ones debug lines, the recovery an info line; attempts
 * after a failure wait twice as long each time, up to `maxMs`. `due()` says whether a tick should
 * try now. Durations come from the monotonic clock.
 */
export class QuietRetry {
  private failures = 0;
  private retryAt = 0;
  /** The last failure's message; null while it succeeds. */
  lastError: string | null = null;
  /** When it last succeeded (performance.now()); null before the first success. */
  lastSuccessMs: number | null = null;

  constructor(
    private readonly what: string,
    private readonly logger: Logger,
    private readonly baseMs: number,
    private readonly maxMs = 30_000,
  ) {}

  /** False while waiting out a failure's backoff. */
  due(now = performance.now()): boolean {
    return now >= this.retryAt;
  }

  get failing(): boolean {
    return this.failures > 0;
  }

  succeeded(now = performance.now()): void {
    if (this.failures > 0) this.logger.info({ failures: this.failures }, `${this.what}: works again`);
    this.failures = 0;
    this.retryAt = 0;
    this.lastError = null;
    this.lastSuccessMs = now;
  }

  failed(err: unknown, now = performance.now()): void {
    const message = err instanceof Error ? err.message : String(err);
    this.failures++;
    const wait = Math.min(this.maxMs, this.baseMs * 2 ** (this.failures - 1));
    this.retryAt = now + wait;
    if (this.failures === 1) this.logger.warn({ err: message }, `${this.what} failed; retrying quietly`);
    else this.logger.debug({ err: message, failures: this.failures, retry_in_ms: wait }, `${this.what} failed again`);
    this.lastError = message;
  }
}
