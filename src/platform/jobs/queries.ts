import type { Db } from '../db/connect.js';

export interface JobRunRow {
  name: string;
  period_seconds: number;
  registered_at: Date;
  running_until: Date | null;
  last_run_at: Date | null;
  last_finished_at: Date | null;
  last_success_at: Date | null;
  last_error: string | null;
  last_duration_ms: number | null;
}

/** At start: the job exists with its period; lateness counts from now if its last success is older. */
export async function registerJob(db: Db, name: string, periodSeconds: number, now: Date): Promise<void> {
  await db`
    insert into job_runs (name, period_seconds, registered_at) values (${name}, ${periodSeconds}, ${now})
    on conflict (name) do update set period_seconds = excluded.period_seconds, registered_at = excluded.registered_at`;
}

/**
 * Takes the job's lease unless another scheduler's run holds it; true when `holder` runs it now.
 * A holder may take its own lease again: it never runs a job twice at a time, and a lease it
 * could not give back (the database went away) must not keep the job from running. Another
 * scheduler's run that started less than half a period ago is this period's run: the schedulers
 * of several nodes fire at the same ticks, and the job runs once per tick cluster-wide.
 */
export async function claimRun(
  db: Db,
  name: string,
  periodSeconds: number,
  now: Date,
  leaseUntil: Date,
  holder: string,
): Promise<boolean> {
  const thisPeriod = new Date(now.getTime() - (periodSeconds * 1000) / 2);
  const rows = await db`
    insert into job_runs (name, period_seconds, registered_at, running_until, running_by, last_run_at, last_run_by)
    values (${name}, ${periodSeconds}, ${now}, ${leaseUntil}, ${holder}, ${now}, ${holder})
    on conflict (name) do update set running_until = excluded.running_until, running_by = excluded.running_by,
      last_run_at = excluded.last_run_at, last_run_by = excluded.last_run_by
      where (job_runs.running_until is null or job_runs.running_until <= ${now} or job_runs.running_by = ${holder})
        and (job_runs.last_run_by is null or job_runs.last_run_by = ${holder}
          or job_runs.last_run_at is null or job_runs.last_run_at <= ${thisPeriod})
    returning 1`;
  return rows.length === 1;
}

/** Gives the lease back and records the outcome (a failed run keeps the last success). */
export async function finishRun(
  db: Db,
  name: string,
  now: Date,
  outcome: { ok: boolean; error: string | null; durationMs: number },
): Promise<void> {
  await db`
    update job_runs set
      running_until = null,
      running_by = null,
      last_finished_at = ${now},
      last_success_at = case when ${outcome.ok} then ${now}::timestamptz else last_success_at end,
      last_error = ${outcome.error},
      last_duration_ms = ${outcome.durationMs}
    where name = ${name}`;
}

export async function listJobRuns(db: Db): Promise<JobRunRow[]> {
  return db<JobRunRow[]>`select * from job_runs order by name`;
}

/** Seconds since the job's last success, or since it was registered (the appliance started) when that is later. */
export function jobLagSeconds(row: Pick<JobRunRow, 'last_success_at' | 'registered_at'>, now: Date): number {
  const since = Math.max(row.last_success_at?.getTime() ?? 0, row.registered_at.getTime());
  return Math.max(0, (now.getTime() - since) / 1000);
}
