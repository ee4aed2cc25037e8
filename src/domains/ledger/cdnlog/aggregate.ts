import { classifyPath, parseLine, type LogLine } from './line.js';

const MINUTE_MS = 60_000;

export interface DeliveryRow {
  stream_id: string;
  /** Start of the minute (UTC) of the log line. */
  minute: Date;
  bytes: number;
}

export interface ViewerRow {
  stream_id: string;
  minute: Date;
  viewer: string;
  country: string;
}

/** What an edge served, from its log: every request, its cache's answer, every body byte (for the operator's view). */
export interface ServedCounts {
  requests: number;
  hits: number;
  misses: number;
  bytes: number;
}

/** nginx's `$upstream_cache_status` values answered from the cache, and those that went to the origin. */
const CACHE_HITS = new Set(['HIT', 'STALE', 'UPDATING', 'REVALIDATED']);
const CACHE_MISSES = new Set(['MISS', 'EXPIRED', 'BYPASS']);

/** Answers that are delivered content: 2xx (206 for a range of a recording included). */
const delivered = (status: number) => status >= 200 && status < 300;

/**
 * What a batch of CDN log lines adds (docs/decisions.md, "CDN log"), pure and in memory:
 * - delivery: body bytes of 2xx answers for playlists, segments and recording downloads, per
 *   stream and minute of the line (thumbnails are public and not charged);
 * - viewers: each viewer id that fetched a segment of the stream (2xx) in the minute, once, with
 *   its country.
 * Lines that are not ours (another format, a torn line) are skipped and counted.
 */
export class BatchTotals {
  lines = 0;
  skipped = 0;
  /** Time of the latest line read (ms), null before the first. */
  lastTimeMs: number | null = null;
  readonly served: ServedCounts = { requests: 0, hits: 0, misses: 0, bytes: 0 };
  private readonly delivery = new Map<string, DeliveryRow>();
  private readonly viewers = new Map<string, ViewerRow>();

  /** Adds every complete line of `text` (lines end with `\n`; a last piece without one is ignored by the caller). */
  addText(text: string): void {
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      if (end === -1) break;
      if (end > start) {
        const line = parseLine(text.slice(start, end));
        if (line) this.add(line);
        else this.skipped++;
      }
      start = end + 1;
    }
  }

  add(line: LogLine): void {
    this.lines++;
    if (this.lastTimeMs === null || line.timeMs > this.lastTimeMs) this.lastTimeMs = line.timeMs;
    this.served.requests++;
    this.served.bytes += line.bytes;
    if (CACHE_HITS.has(line.cache)) this.served.hits++;
    else if (CACHE_MISSES.has(line.cache)) this.served.misses++;
    if (!delivered(line.status)) return;
    const object = classifyPath(line.path);
    if (!object || object.kind === 'thumbnail') return;
    const minuteMs = line.timeMs - (line.timeMs % MINUTE_MS);
    const key = `${object.streamId} ${minuteMs}`;
    const known = this.delivery.get(key);
    if (known) known.bytes += line.bytes;
    else this.delivery.set(key, { stream_id: object.streamId, minute: new Date(minuteMs), bytes: line.bytes });
    if (object.kind !== 'segment' || line.viewer === '') return;
    const viewerKey = `${key} ${line.viewer}`;
    if (!this.viewers.has(viewerKey))
      this.viewers.set(viewerKey, {
        stream_id: object.streamId,
        minute: new Date(minuteMs),
        viewer: line.viewer,
        country: line.country,
      });
  }

  deliveryRows(): DeliveryRow[] {
    return [...this.delivery.values()];
  }

  viewerRows(): ViewerRow[] {
    return [...this.viewers.values()];
  }
}
