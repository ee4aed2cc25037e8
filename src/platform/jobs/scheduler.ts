import cron, { type ScheduledTask } from 'node-cron';
import type { Logger } from '../../core/logger.js';
import type { Sql } from '../db/connect.js';

export interface Job {
  name: string;
  /** node-cron expression (seconds field allowed). */
  schedule: string;
  /** Distinct per job: several appliance nodes on one database run each job once at a time. */
  lockKey: number;
  run: () => Promise<unknown>;
}

/** Runs jobs on their schedules: a run is skipped while the last one is still going; errors are logged. */
export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly sql: Sql,
    private readonly log: Logger,
  ) {}

  add(job: Job): void {
    let busy = false;
    const task = cron.schedule(job.schedule, () => {
      if (busy) return;
      busy = true;
      const done = this.runLocked(job).finally(() => {
        busy = false;
        this.running.delete(done);
      });
      this.running.add(done);
    });
    this.tasks.push(task);
  }

  /** Runs a job once (under its lock); skipped when another node holds the lock. */
  private async runLocked(job: Job): Promise<void> {
    const started = performance.now();
    let conn: Awaited<ReturnType<Sql['reserve']>> | undefined;
    try {
      conn = await this.sql.reserve();
      const [row] = await conn<{ locked: boolean }[]>`select pg_try_advisory_lock(${job.lockKey}) as locked`;
      if (!row?.locked) return;
      try {
        const result = await job.run();
        this.log.debug({ job: job.name, result, ms: performance.now() - started }, 'job done');
      } finally {
        await conn`select pg_advisory_unlock(${job.lockKey})`;
      }
    } catch (err) {
      this.log.error({ job: job.name, err }, 'job failed');
    } finally {
      conn?.release();
    }
  }

  async stop(): Promise<void> {
    for (const task of this.tasks) await task.stop();
    await Promise.all(this.running);
  }
}
