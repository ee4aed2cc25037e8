import type { Clock } from '../../../core/clock.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import * as q from './queries.js';

/**
 * A sample at most this often per stream: 360 rows an hour, enough for a chart, and the live
 * tick (every `live.sample_seconds`) still stores the latest measurement on the stream each time.
 */
export const INGEST_SAMPLE_SECONDS = 10;
/** How long the ingest series is kept (the `ingest-samples-purge` job). */
export const INGEST_SAMPLE_DAYS = 7;

/** Whether a tick at `now` stores a sample, the last one having been stored at `last`. */
export const sampleDue = (last: Date | null, now: Date): boolean =>
  last === null || now.getTime() - last.getTime() >= INGEST_SAMPLE_SECONDS * 1000;

/** The ingest series of streams (the live tick writes it, see EndingRules.measure): read and purged here. */
export class IngestHistory {
  constructor(private readonly deps: { sql: Sql; clock: Clock }) {}

  series(streamId: string): Promise<q.IngestSample[]> {
    return q.ingestSamples(this.deps.sql, streamId);
  }

  /** Samples older than the retention go; returns how many. */
  async purge(batch = 10_000): Promise<number> {
    const before = addSeconds(this.deps.clock.now(), -INGEST_SAMPLE_DAYS * 86_400);
    let total = 0;
    for (;;) {
      const n = await q.purgeIngestSamples(this.deps.sql, before, batch);
      total += n;
      if (n < batch) return total;
    }
  }
}
