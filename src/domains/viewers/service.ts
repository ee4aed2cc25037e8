import type { Logger } from '../../core/logger.js';
import { iso } from '../../core/time.js';
import type { Sql } from '../../platform/db/connect.js';
import type { PlayerSeriesPoint, Viewers } from '../streams/schemas.js';
import { mergeMinutes, type MinuteRow, type ViewerCounter } from './counter.js';
import * as q from './queries.js';

/** Minutes kept for the next flush while the database refuses them (about 2 hours of 1000 streams). */
const MAX_UNWRITTEN = 100_000;

/** The counter carries the clock: every time here is the counter's. */
export interface ViewersDeps {
  sql: Sql;
  logger: Logger;
  counter: ViewerCounter;
}

const perMinute = (seconds: number): number => Math.round(seconds / 60);
const bufferingPct = (buffering: number, watching: number): number => (watching > 0 ? Math.round((1000 * buffering) / watching) / 10 : 0);

/** Viewer figures of a stream: this node's live estimate and every node's minutes in PostgreSQL. */
export class ViewersService {
  private readonly log: Logger;
  /** Drained but not written (the database failed): written with the next flush. */
  private unwritten: MinuteRow[] = [];

  constructor(private readonly deps: ViewersDeps) {
    this.log = deps.logger.child({ domain: 'viewers' });
  }

  /**
   * Writes the finished minutes (with `partial`, the open ones too: on shutdown); returns the
   * rows written. Every node flushes its own counts: never run it under a cluster-wide lock.
   */
  async flush(opts: { partial?: boolean } = {}): Promise<number> {
    const rows = mergeMinutes([...this.unwritten, ...this.deps.counter.drainMinutes(opts)]);
    this.unwritten = [];
    try {
      return await q.addMinutes(this.deps.sql, rows);
    } catch (err) {
      const kept = mergeMinutes([...rows, ...this.unwritten]);
      this.unwritten = kept.slice(-MAX_UNWRITTEN);
      if (kept.length > MAX_UNWRITTEN) this.log.warn({ dropped: kept.length - MAX_UNWRITTEN }, 'viewer minutes dropped: the database refused them too long');
      throw err;
    }
  }

  /**
   * Samples the counter on its period and flushes every minute, on this node. Returns its stop,
   * which writes the open minutes too.
   */
  start(): () => Promise<void> {
    let flushing: Promise<unknown> | null = null;
    const flush = (opts: { partial?: boolean } = {}) =>
      (flushing ??= this.flush(opts)
        .catch((err: unknown) => this.log.error({ err }, 'viewer minutes not written; kept for the next flush'))
        .finally(() => (flushing = null)));
    const sampler = setInterval(() => this.deps.counter.sample(), this.deps.counter.sampleSeconds * 1000);
    const flusher = setInterval(() => void flush(), 60_000);
    return async () => {
      clearInterval(sampler);
      clearInterval(flusher);
      await flushing;
      await flush({ partial: true });
    };
  }

  /**
   * The spec's Viewers: `now` from this node's counter; `peak` from the minutes written (they
   * trail by up to a minute); `watch_minutes` adds this node's minutes not written yet.
   */
  async viewers(streamId: string, over: boolean): Promise<Viewers> {
    const totals = await q.minuteTotals(this.deps.sql, streamId);
    const pending = this.pendingWatchedSeconds(streamId);
    const counted = totals.minutes > 0 || pending > 0;
    return {
      now: over ? null : this.deps.counter.now(streamId),
      peak: totals.peak_watching_seconds === null ? null : perMinute(totals.peak_watching_seconds),
      peak_at: iso(totals.peak_minute),
      watch_minutes: counted ? perMinute(totals.watched_seconds + pending) : null,
      source: counted ? 'player' : null,
      cdn_counted_until: null,
    };
  }

  /** `viewers_now`: watching on this node's player count now; null when nobody is on the player. */
  viewersNow(streamId: string): number | null {
    return this.deps.counter.now(streamId)?.watching ?? null;
  }

  /** The ViewerSeries' `player`: one point per minute with someone on the player, oldest first. */
  async series(streamId: string): Promise<PlayerSeriesPoint[]> {
    const minutes = await q.listMinutes(this.deps.sql, streamId);
    return minutes.map((m) => ({
      minute: m.minute.toISOString(),
      watching: perMinute(m.watching_seconds),
      waiting: perMinute(m.waiting_seconds),
      buffering_pct: bufferingPct(m.buffering_seconds, m.watching_seconds),
      exact: m.exact,
    }));
  }

  /** Minutes watched so far (for `player.watch_minutes_limit`), this node's unwritten ones included. */
  async watchMinutes(streamId: string): Promise<number> {
    const totals = await q.minuteTotals(this.deps.sql, streamId);
    return perMinute(totals.watched_seconds + this.pendingWatchedSeconds(streamId));
  }

  private pendingWatchedSeconds(streamId: string): number {
    let seconds = this.deps.counter.undrainedWatchedSeconds(streamId);
    for (const row of this.unwritten) if (row.stream_id === streamId) seconds += row.watched_seconds;
    return seconds;
  }
}
