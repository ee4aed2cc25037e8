import { jobLagSeconds, type JobRunRow } from './queries.js';

/** A scheduled job as `svc status` and the dashboard show it: late once its last success is older than twice its period. */
export interface JobStatus {
  name: string;
  period_seconds: number;
  last_run_at: string | null;
  last_success_at: string | null;
  /** How long the last finished run took. */
  last_duration_ms: number | null;
  /** Seconds since the last success, or since the appliance started when that is later. */
  lag_seconds: number;
  late: boolean;
  running: boolean;
  last_error: string | null;
}

export function jobStatus(row: JobRunRow, now: Date): JobStatus {
  const lag = Math.round(jobLagSeconds(row, now));
  return {
    name: row.name,
    period_seconds: row.period_seconds,
    last_run_at: row.last_run_at?.toISOString() ?? null,
    last_success_at: row.last_success_at?.toISOString() ?? null,
    last_duration_ms: row.last_duration_ms,
    lag_seconds: lag,
    late: lag > 2 * row.period_seconds,
    running: row.running_until !== null && row.running_until > now,
    last_error: row.last_error,
  };
}
