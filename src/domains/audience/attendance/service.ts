import type { Account } from '../../ledger/accounts/model.js';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { Sql } from '../../../platform/db/connect.js';
import { ownScope, type ScopeRef } from '../bans/scope.js';
import * as q from './queries.js';
import { mergeAttendance, type AttendanceRecorder, type AttendanceRow } from './recorder.js';
import type { AttendanceList, AttendanceQuery } from './schemas.js';

/** Rows kept for the next flush while the database refuses them (one per stream and viewer). */
export const MAX_UNWRITTEN = 100_000;
const DEFAULT_PAGE = 100;

export interface AttendanceDeps {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  recorder: AttendanceRecorder;
  /** `attendance_flush_seconds`. */
  flushSeconds: number;
  maxUnwritten?: number;
}

/** Token viewers' attendance: this node's recorder written to PostgreSQL, and the list read from it. */
export class AttendanceService {
  readonly recorder: AttendanceRecorder;
  private readonly log: Logger;
  private readonly maxUnwritten: number;
  /** Drained but not written (the database refused them): written with the next flush. */
  private unwritten: AttendanceRow[] = [];
  private evictedLogged = 0;

  constructor(private readonly deps: AttendanceDeps) {
    this.recorder = deps.recorder;
    this.log = deps.logger.child({ domain: 'attendance' });
    this.maxUnwritten = deps.maxUnwritten ?? MAX_UNWRITTEN;
  }

  /**
   * Writes what the recorder gathered, with the rows a failed flush kept; returns the rows
   * written. Every node flushes its own: never run it under a cluster-wide lock.
   */
  async flush(): Promise<number> {
    const rows = mergeAttendance([...this.unwritten, ...this.recorder.drain(this.deps.clock.now().getTime())]);
    this.unwritten = [];
    if (this.recorder.evicted > this.evictedLogged) {
      this.log.warn(
        { viewers: this.recorder.evicted - this.evictedLogged },
        'attendance of viewers dropped: more viewers at once than the recorder keeps',
      );
      this.evictedLogged = this.recorder.evicted;
    }
    try {
      return await q.addAttendance(this.deps.sql, rows);
    } catch (err) {
      this.unwritten = rows.slice(0, this.maxUnwritten);
      if (rows.length > this.maxUnwritten)
        this.log.warn(
          { dropped: rows.length - this.maxUnwritten },
          'attendance rows dropped: the database refused them too long',
        );
      throw err;
    }
  }

  /** Rows waiting for the database after a failed flush. */
  get pending(): number {
    return this.unwritten.length;
  }

  /** Flushes every `attendance_flush_seconds` on this node; returns its stop, which writes what is left. */
  start(): () => Promise<void> {
    let flushing: Promise<unknown> | null = null;
    const flush = () =>
      (flushing ??= this.flush()
        .catch((err: unknown) => this.log.error({ err }, 'attendance not written; kept for the next flush'))
        .finally(() => (flushing = null)));
    const timer = setInterval(() => void flush(), this.deps.flushSeconds * 1000);
    return async () => {
      clearInterval(timer);
      await flushing;
      await flush();
    };
  }

  /**
   * A page of the attendance of one of the account's streams, or of one of its channels (each
   * viewer's across its streams), in byte order of viewer ids.
   */
  async list(account: Account, ref: ScopeRef, query: AttendanceQuery): Promise<AttendanceList> {
    const scope = await ownScope(this.deps.sql, account.id, ref);
    const limit = query.limit ?? DEFAULT_PAGE;
    const opts = { limit: limit + 1, after: query.after ?? null };
    const { rows, total } =
      scope.stream_id === null
        ? await q.listChannelAttendance(this.deps.sql, scope.channel_id, opts)
        : await q.listAttendance(this.deps.sql, scope.stream_id, opts);
    const data = rows.slice(0, limit).map((r) => ({
      object: 'attendance' as const,
      viewer_id: r.viewer_id,
      name: r.name,
      watch_seconds: r.watch_seconds,
      first_seen_at: r.first_seen_at.toISOString(),
      last_seen_at: r.last_seen_at.toISOString(),
    }));
    const hasMore = rows.length > limit;
    return {
      object: 'list',
      data,
      has_more: hasMore,
      next_after: hasMore ? (data.at(-1)?.viewer_id ?? null) : null,
      total,
    };
  }
}
