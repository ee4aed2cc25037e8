import { rename, rm } from 'node:fs/promises';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { BatchTotals } from './aggregate.js';
import { openLog, readLines, type OpenLog } from './log-file.js';
import type * as q from './queries.js';
import type { LogSink } from './sink.js';

export interface CdnLogReaderDeps {
  /** Where batches are counted: the origin's database, or the origin's API from an edge. */
  sink: LogSink;
  clock: Clock;
  logger: Logger;
  /** The log nginx writes. */
  file: string;
  /** Its name after a rotation, while its last lines are read; deleted once read. */
  rotatedFile: string;
  /** The log is rotated once larger than this. */
  maxBytes: number;
  /** Has nginx reopen its logs (SIGUSR1 to its master); false when no nginx runs. */
  reopen: () => boolean;
  /** Bytes of log read per transaction. */
  batchBytes?: number;
}

export interface ReadResult {
  lines: number;
  skipped: number;
  batches: number;
  rotations: number;
  counted_until: string | null;
}

const DEFAULT_BATCH_BYTES = 8 * 1024 * 1024;
/** A log line's time comes from nginx's cached clock: a read counts as covering the log up to this much before it began. */
const CLOCK_SLACK_MS = 1000;
/** After a rotation, an nginx that logged nothing in the new file is taken to have reopened it after this long. */
const REOPEN_SETTLE_MS = 10_000;

type Step = { pos: q.ReaderPosition; again: boolean } | 'moved';

/**
 * Reads a CDN access log into the ledger (docs/decisions.md, "CDN log"): delivered bytes per
 * stream and minute (`delivery_minutes`), viewers per minute and countries; the origin's own log,
 * or an edge's through the origin's API (the sink). Its position (file identity and byte offset)
 * moves in the transaction that adds what the lines before it count,
 * so a kill at any point neither loses a line nor counts one twice. Only complete lines are
 * read. It owns the log's rotation: past `maxBytes` it renames the file, has nginx reopen its
 * logs, reads the renamed file to its end by its identity, then deletes it. A file replaced or
 * truncated by something else is read from its start, with a warning.
 */
export class CdnLogReader {
  private readonly log: Logger;
  private readonly batchBytes: number;
  /** Rotated files of this process → when their rotation was first seen (performance.now()). */
  private readonly rotationSeen = new Map<string, number>();

  constructor(private readonly deps: CdnLogReaderDeps) {
    this.log = deps.logger.child({ domain: 'cdnlog' });
    this.batchBytes = deps.batchBytes ?? DEFAULT_BATCH_BYTES;
  }

  /** Reads what the log holds now, one transaction per batch; stops between batches when `signal` aborts. */
  async run(signal?: AbortSignal): Promise<ReadResult> {
    const result: ReadResult = { lines: 0, skipped: 0, batches: 0, rotations: 0, counted_until: null };
    let pos = await this.deps.sink.position();
    while (!signal?.aborted) {
      const readAt = this.deps.clock.now();
      const current = await openLog(this.deps.file);
      const rotated = await openLog(this.deps.rotatedFile).catch(async (err: unknown) => {
        await current?.handle.close();
        throw err;
      });
      let step: Step;
      try {
        step = await this.step(pos, current, rotated, readAt, result);
      } finally {
        await current?.handle.close();
        await rotated?.handle.close();
      }
      if (step === 'moved') {
        this.log.warn('the CDN log position was moved by another reader; reading on from there');
        pos = await this.deps.sink.position();
        continue;
      }
      pos = step.pos;
      result.counted_until = pos.counted_until?.toISOString() ?? null;
      if (!step.again) break;
    }
    return result;
  }

  /** One batch: which file, its next lines, one transaction; then the rotation's next move. */
  private async step(
    pos: q.ReaderPosition,
    current: OpenLog | null,
    rotated: OpenLog | null,
    readAt: Date,
    result: ReadResult,
  ): Promise<Step> {
    const rotating = rotated !== null && rotated.id === pos.file_id;
    let source: OpenLog | null = null;
    let start = pos;
    if (rotating) {
      source = rotated;
    } else {
      if (rotated) {
        // Left by a rotation whose position had already moved on to the new file.
        await rm(this.deps.rotatedFile, { force: true });
        this.log.info({ file: this.deps.rotatedFile }, 'removed the rotated CDN log (it had been read)');
      }
      if (current && current.id === pos.file_id) {
        source = current;
      } else if (current) {
        if (pos.file_id !== null) {
          this.log.warn(
            { file: this.deps.file, offset: pos.byte_offset },
            'the CDN log was replaced by something else (rotated or recreated): reading the new file from its start; lines of the old one past the position are not counted',
          );
        }
        source = current;
        start = { ...pos, file_id: current.id, byte_offset: 0 };
      } else {
        // No log: nginx opens a new one when told to reopen (or when it starts).
        this.deps.reopen();
      }
    }
    if (source && source.size < start.byte_offset) {
      this.log.warn(
        { file: this.deps.file, size: source.size, offset: start.byte_offset },
        'the CDN log is shorter than the position (truncated by something else): reading it from its start; lines past the position before the truncation are not counted',
      );
      start = { ...start, byte_offset: 0 };
    }

    const chunk = source
      ? await readLines(source, start.byte_offset, this.batchBytes)
      : { text: '', end: start.byte_offset, more: false, idle: true };
    const totals = new BatchTotals();
    totals.addText(chunk.text);
    const to: q.ReaderPosition = {
      file_id: start.file_id,
      byte_offset: chunk.end,
      counted_until: this.countedUntil(pos, totals, readAt, !rotating && !chunk.more && chunk.idle),
    };
    const moved = await this.deps.sink.commit(pos, to, {
      delivery: totals.deliveryRows(),
      viewers: totals.viewerRows(),
      served: totals.served,
    });
    if (!moved) return 'moved';
    result.batches++;
    result.lines += totals.lines;
    result.skipped += totals.skipped;
    if (totals.skipped > 0)
      this.log.warn({ skipped: totals.skipped }, 'CDN log lines not in the CDN log format were skipped');

    if (chunk.more) return { pos: to, again: true };
    if (rotating && source) return this.finishRotation(to, source, current, chunk.idle);
    if (source && source === current && current.size > this.deps.maxBytes) {
      await rename(this.deps.file, this.deps.rotatedFile);
      this.rotationSeen.set(current.id, performance.now());
      const reopened = this.deps.reopen();
      result.rotations++;
      this.log.info(
        { file: this.deps.file, bytes: current.size, reopened },
        'CDN log rotated; reading the rest of the old file',
      );
      return { pos: to, again: true };
    }
    return { pos: to, again: false };
  }

  /**
   * The rotated file was read to its end. It is finished once nginx writes the new file (or,
   * idle, has had time to reopen): the position moves to the new file's start, then the old file
   * is deleted.
   */
  private async finishRotation(
    at: q.ReaderPosition,
    old: OpenLog,
    current: OpenLog | null,
    idle: boolean,
  ): Promise<Step> {
    const now = performance.now();
    const seen = this.rotationSeen.get(old.id) ?? now;
    this.rotationSeen.set(old.id, seen);
    const settled = now - seen >= REOPEN_SETTLE_MS;
    if (!idle) return { pos: at, again: false };
    if (!current || (current.size === 0 && !settled)) {
      // nginx has not reopened yet, or was down when told to (a new nginx opens a new file).
      if (!current && settled) this.deps.reopen();
      return { pos: at, again: false };
    }
    const next: q.ReaderPosition = { file_id: current.id, byte_offset: 0, counted_until: at.counted_until };
    const nothing = { delivery: [], viewers: [], served: { requests: 0, hits: 0, misses: 0, bytes: 0 } };
    if (!(await this.deps.sink.commit(at, next, nothing))) return 'moved';
    await rm(this.deps.rotatedFile, { force: true });
    this.rotationSeen.delete(old.id);
    this.log.info({ file: this.deps.rotatedFile }, 'the rotated CDN log was read to its end and deleted');
    return { pos: next, again: true };
  }

  /**
   * Everything logged before it has been read: the latest line's time, or, when the whole log was
   * read and nothing is left (idle), the time the read began (less nginx's clock slack). Never
   * goes back.
   */
  private countedUntil(pos: q.ReaderPosition, totals: BatchTotals, readAt: Date, idle: boolean): Date | null {
    let until = pos.counted_until?.getTime() ?? null;
    const consider = (t: number) => {
      if (until === null || t > until) until = t;
    };
    if (totals.lastTimeMs !== null) consider(totals.lastTimeMs);
    if (idle) consider(readAt.getTime() - CLOCK_SLACK_MS);
    return until === null ? null : new Date(until);
  }
}
