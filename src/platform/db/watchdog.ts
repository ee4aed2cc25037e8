import type { Logger } from '../../core/logger.js';
import { Repeater } from '../../core/repeater.js';
import type { ManagedCluster } from './managed-cluster.js';

export interface ClusterWatchdogOptions {
  cluster: ManagedCluster;
  logger: Logger;
  /** Between looks at the postmaster. */
  intervalMs?: number;
  /** Waits after consecutive failed starts: the last one repeats. */
  backoffMs?: number[];
}

/**
 * Restarts the appliance-owned PostgreSQL when its postmaster dies (a kill, an out-of-memory
 * kill, a crash that took the postmaster): it looks every second and runs `pg_ctl start`
 * again, waiting longer after each start that fails (a crashed server may need its old
 * processes to exit first). A frozen server is alive and left alone: the database monitor
 * answers for it.
 */
export class ClusterWatchdog {
  private readonly backoffMs: number[];
  private readonly repeater: Repeater;
  private starting: Promise<void> | null = null;
  private failures = 0;
  private nextTryAt = 0;
  /** Starts made after a death (for status and tests). */
  restarts = 0;

  constructor(private readonly opts: ClusterWatchdogOptions) {
    this.backoffMs = opts.backoffMs ?? [0, 1000, 2000, 5000, 10_000, 30_000];
    this.repeater = new Repeater(() => this.check(), opts.intervalMs ?? 1000);
  }

  start(): void {
    this.repeater.start();
  }

  async stop(): Promise<void> {
    await this.repeater.stop();
    await this.starting;
  }

  /** One look: starts the server again when its postmaster is gone and the backoff allows. */
  async check(): Promise<void> {
    if (this.starting || this.opts.cluster.postmasterAlive()) return;
    if (performance.now() < this.nextTryAt) return;
    this.starting = this.restart().finally(() => (this.starting = null));
    await this.starting;
  }

  private async restart(): Promise<void> {
    const { logger, cluster } = this.opts;
    const started = performance.now();
    logger.error({ attempt: this.failures + 1 }, 'PostgreSQL is not running: starting it again');
    try {
      await cluster.start();
      this.restarts++;
      this.failures = 0;
      this.nextTryAt = 0;
      logger.info({ ms: Math.round(performance.now() - started) }, 'PostgreSQL started again');
    } catch (err) {
      this.failures++;
      const wait = this.backoffMs[Math.min(this.failures, this.backoffMs.length - 1)] ?? 30_000;
      this.nextTryAt = performance.now() + wait;
      logger.error({ err, attempt: this.failures, retry_in_ms: wait }, 'PostgreSQL did not start');
    }
  }
}
