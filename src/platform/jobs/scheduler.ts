import { randomUUID } from 'node:crypto';
import cron, { type ScheduledTask } from 'node-cron';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { addSeconds } from '../../core/time.js';
import type { Sql } from '../db/connect.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { claimRun, finishRun, registerJob } from './queries.js';

export interface Job {
  name: string;
  /** node-cron expression (seconds field allowed). */
  schedule: string;
  /** How often the schedule runs it: a job whose last success is older than twice this is late. */
  periodSeconds: number;
  /** A run still going after this is abandoned (its signal aborts) and the job may run again. */
  timeoutSeconds: number;
  run: (signal: AbortSignal) => Promise<unknown>;
}

const FINISH_TIMEOUT_SECONDS = 10;

/** Why a run ended without an outcome of its own. */
class RunTimeout extends Error {
  constructor(seconds: number) {
    super(`the run took longer than its ${seconds} s`);
  }
}

/**
 * Runs jobs on their schedules. Each run is bounded by its timeout; a job never overlaps itself,
 * on this node (a tick is skipped while a run is going) or across nodes (a lease in `job_runs`,
 * which expires with the timeout, so a node that died mid-run holds nothing). Nothing waits on
 * the database between runs, so after an outage of any length the next tick runs the job.
 * Each run's start, end, last success and error are in `job_runs` (for `svc status`).
 */
export class Scheduler {
  private readonly tasks: ScheduledTask[] = [];
  private readonly running = new Set<Promise<void>>();
  /** Jobs whose last attempt failed for want of the database: logged once per outage. */
  private readonly waiting = new Set<string>();
  /** This scheduler's name on the leases it holds. */
  private readonly holder = randomUUID();

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Registers the job (its period, for lateness) and schedules it. */
  async add(job: Job): Promise<void> {
    await registerJob(this.sql, job.name, job.periodSeconds, this.clock.now());
    let busy = false;
    const task = cron.schedule(job.schedule, () => {
      if (busy) return;
      busy = true;
      const done = this.runOnce(job).finally(() => {
        busy = false;
        this.running.delete(done);
      });
      this.running.add(done);
    });
    this.tasks.push(task);
  }

  /** One run under the job's lease, bounded by its timeout; never throws. */
  async runOnce(job: Job): Promise<void> {
    const started = performance.now();
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new RunTimeout(job.timeoutSeconds));
        reject(new RunTimeout(job.timeoutSeconds));
      }, job.timeoutSeconds * 1000);
    });
    let claimed = false;
    let outcome: { ok: boolean; error: string | null };
    try {
      await Promise.race([
        (async () => {
          const now = this.clock.now();
          claimed = await claimRun(
            this.sql,
            job.name,
            job.periodSeconds,
            now,
            addSeconds(now, job.timeoutSeconds),
            this.holder,
          );
          if (!claimed) return;
          const result = await job.run(controller.signal);
          this.log.debug({ job: job.name, result, ms: Math.round(performance.now() - started) }, 'job done');
        })(),
        timedOut,
      ]);
      outcome = { ok: true, error: null };
      if (this.waiting.delete(job.name)) this.log.info({ job: job.name }, 'job runs again');
    } catch (err) {
      outcome = { ok: false, error: (err as Error).message.slice(0, 500) };
      if (isDatabaseUnavailable(err)) {
        if (!this.waiting.has(job.name)) this.log.warn({ job: job.name, err }, 'job waits for the database');
        this.waiting.add(job.name);
      } else if (err instanceof RunTimeout) {
        this.log.error({ job: job.name, timeout_seconds: job.timeoutSeconds }, 'job run abandoned after its timeout');
      } else {
        this.log.error({ job: job.name, err }, 'job failed');
      }
    } finally {
      clearTimeout(timer);
    }
    if (!claimed) return;
    try {
      // Bounded too: a frozen server must not keep the job busy here either.
      const finished = finishRun(this.sql, job.name, this.clock.now(), {
        ...outcome,
        durationMs: Math.round(performance.now() - started),
      });
      await Promise.race([
        finished,
        new Promise(
          (_, reject) =>
            (timer = setTimeout(() => reject(new RunTimeout(FINISH_TIMEOUT_SECONDS)), FINISH_TIMEOUT_SECONDS * 1000)),
        ),
      ]);
    } catch (err) {
      // The lease runs out by itself.
      this.log.debug({ job: job.name, err }, 'job outcome not recorded');
    } finally {
      clearTimeout(timer);
    }
  }

  async stop(): Promise<void> {
    for (const task of this.tasks) await task.stop();
    await Promise.all(this.running);
  }
}
