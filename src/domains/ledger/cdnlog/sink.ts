import type { Clock } from '../../../core/clock.js';
import type { Db, Sql } from '../../../platform/db/connect.js';
import type { DeliveryRow, ServedCounts, ViewerRow } from './aggregate.js';
import * as q from './queries.js';

/** What one batch of log lines counts, as it travels from a reader to the ledger. */
export interface BatchRows {
  delivery: DeliveryRow[];
  viewers: ViewerRow[];
  served: ServedCounts;
}

/**
 * Where a CDN log reader's batches go: the ledger in PostgreSQL on the origin (`DbLogSink`), the
 * origin's API from an edge. Either way a batch and the position after it are committed together,
 * or not at all.
 */
export interface LogSink {
  /** Where the reading of this log stands. */
  position(): Promise<q.ReaderPosition>;
  /** Adds the batch and moves the position from `from` to `to`; false (nothing added) when it was no longer at `from`. */
  commit(from: q.ReaderPosition, to: q.ReaderPosition, batch: BatchRows): Promise<boolean>;
}

/** A minute's viewer ids are compacted once every log was read this far past the minute's end. */
const COMPACT_AFTER_MS = 60_000;
const MINUTE_MS = 60_000;

/**
 * One batch of one source in one transaction: delivered bytes, viewer ids, `also` (an edge's
 * served counts), the position's move, and the compaction of minutes every source has read past.
 * Nothing is written when the position was no longer at `from`.
 */
export async function commitBatch(
  sql: Sql,
  source: string,
  from: Pick<q.ReaderPosition, 'file_id' | 'byte_offset'>,
  to: q.ReaderPosition,
  batch: Pick<BatchRows, 'delivery' | 'viewers'>,
  now: Date,
  also?: (tx: Db) => Promise<unknown>,
): Promise<boolean> {
  return sql.begin(async (tx) => {
    if (!(await q.movePosition(tx, source, from, to, now))) return false;
    await addBatch(tx, batch);
    await also?.(tx);
    return true;
  });
}

/**
 * What a batch counts, inside the caller's transaction (a reader's position move, or an imported
 * file's record): delivered bytes, viewer ids, and the compaction of minutes every source has read past.
 */
export async function addBatch(tx: Db, batch: Pick<BatchRows, 'delivery' | 'viewers'>): Promise<void> {
  const until = await q.countedUntil(tx);
  const horizon = until ? new Date(until.getTime() - MINUTE_MS - COMPACT_AFTER_MS) : null;
  await q.lockAudiences(tx, [...new Set([...batch.delivery, ...batch.viewers].map((r) => r.stream_id))], horizon);
  await q.addDelivery(tx, batch.delivery);
  await q.addViewerIds(tx, batch.viewers);
  if (horizon) await q.compactViewers(tx, horizon);
}

/** The origin's own log, read into its database. */
export class DbLogSink implements LogSink {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly source = q.ORIGIN_SOURCE,
  ) {}

  position(): Promise<q.ReaderPosition> {
    return q.readPosition(this.sql, this.source, this.clock.now());
  }

  commit(from: q.ReaderPosition, to: q.ReaderPosition, batch: BatchRows): Promise<boolean> {
    return commitBatch(this.sql, this.source, from, to, batch, this.clock.now());
  }
}
