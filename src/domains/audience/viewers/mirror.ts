import type { Clock } from '../../../core/clock.js';
import { ViewerCounter, type NowEstimate } from './counter.js';

/** What a counting process knows in memory, per stream, that its readers show. */
export interface CountedFigures {
  /** `viewers.now` of every stream with someone on the player. */
  now: Record<string, NowEstimate>;
  /** Watched seconds not written to PostgreSQL yet (`watch_minutes` adds them). */
  pendingWatched: Record<string, number>;
  /** Watched seconds of each stream's largest address (`watch_minutes_limit` leaves them out). */
  largestAddress?: Record<string, number>;
}

/**
 * The counter of another process (the appliance's, for an API worker process), as that process
 * last told: `now` and the unwritten watched seconds are its figures, and nothing is counted
 * here (beats never reach a worker, and nothing is drained or written from here).
 */
export class MirroredViewerCounter extends ViewerCounter {
  private figures: CountedFigures = { now: {}, pendingWatched: {} };

  constructor(clock: Clock) {
    super({ clock, intervalSeconds: 1 });
  }

  update(figures: CountedFigures): void {
    this.figures = figures;
  }

  override now(streamId: string): NowEstimate | null {
    return this.figures.now[streamId] ?? null;
  }

  override undrainedWatchedSeconds(streamId: string): number {
    return this.figures.pendingWatched[streamId] ?? 0;
  }

  override largestAddressWatchedSeconds(streamId: string): number {
    return this.figures.largestAddress?.[streamId] ?? 0;
  }
}
