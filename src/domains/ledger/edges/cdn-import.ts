import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Clock } from '../../../core/clock.js';
import type { Sql } from '../../../platform/db/connect.js';
import { BatchTotals } from '../cdnlog/aggregate.js';
import { parseLogpushLine } from '../cdnlog/logpush.js';
import * as log from '../cdnlog/queries.js';
import { addBatch } from '../cdnlog/sink.js';
import * as q from './queries.js';

/** What one file added (or would have added, when it was imported before). */
export interface ImportedFile {
  file: string;
  /** sha256 of the file's content (decompressed), hex: the file's identity. */
  digest: string;
  /** false: a file with this content was imported before; nothing was added. */
  imported: boolean;
  /** When it was imported (now, or the first time). */
  imported_at: string;
  lines: number;
  /** Lines that are not requests of the format (or Workers' subrequests): not counted. */
  skipped: number;
  /** Body bytes of 2xx answers for playlists, segments and recordings of streams (what is billed). */
  delivered_bytes: number;
  /** Times of the first and last request in the file. */
  first_time: string | null;
  last_time: string | null;
}

/** A file's lines as a stream: gunzipped when it starts with gzip's magic bytes (Logpush writes `.log.gz`). */
async function contentOf(path: string): Promise<Readable> {
  const handle = await open(path, 'r');
  let gzip: boolean;
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    gzip = bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
  } finally {
    await handle.close();
  }
  const raw = createReadStream(path);
  if (!gzip) return raw;
  const gunzip = createGunzip();
  raw.on('error', (err) => gunzip.destroy(err));
  return raw.pipe(gunzip);
}

interface ReadFile {
  digest: string;
  totals: BatchTotals;
  firstMs: number | null;
}

/** Reads and aggregates a whole file in memory (the aggregates are per stream and minute: small whatever the file). */
async function readLogpushFile(path: string, viewerKey: string): Promise<ReadFile> {
  const content = await contentOf(path);
  const hash = createHash('sha256');
  content.on('data', (chunk: Buffer) => hash.update(chunk));
  const totals = new BatchTotals();
  let firstMs: number | null = null;
  for await (const text of createInterface({ input: content, crlfDelay: Infinity })) {
    if (text.trim() === '') continue;
    const line = parseLogpushLine(text, viewerKey);
    if (!line) {
      totals.skipped++;
      continue;
    }
    if (firstMs === null || line.timeMs < firstMs) firstMs = line.timeMs;
    totals.add(line);
  }
  return { digest: hash.digest('hex'), totals, firstMs };
}

/**
 * Imports a third-party CDN's log files (docs/decisions.md, "Any CDN in front"): each file is read
 * whole, then what it counts (delivered bytes per stream and minute, viewer ids with their
 * countries) is added in one transaction with the row that names the file by its content's digest.
 * A file counts once: a second import of the same content adds nothing and says so; an import
 * killed at any point added nothing.
 */
export class CdnLogImporter {
  constructor(
    private readonly deps: {
      sql: Sql;
      clock: Clock;
      /** The key of viewer ids (cdnViewerKey), the same the origin's nginx uses. */
      viewerKey: string;
    },
  ) {}

  /** The CDN a file comes from, by name or id: a registered CDN (`svc edges add --kind cdn`), not removed. */
  async source(nameOrId: string): Promise<q.CdnSource | null> {
    return q.findCdnSource(this.deps.sql, nameOrId);
  }

  async importFile(source: q.CdnSource, path: string): Promise<ImportedFile> {
    const { digest, totals, firstMs } = await readLogpushFile(path, this.deps.viewerKey);
    const delivery = totals.deliveryRows();
    const viewers = totals.viewerRows();
    const deliveredBytes = delivery.reduce((sum, r) => sum + r.bytes, 0);
    const record: log.ImportRecord = {
      digest,
      source: source.id,
      file_name: basename(path),
      lines: totals.lines,
      skipped: totals.skipped,
      delivered_bytes: deliveredBytes,
      first_time: firstMs === null ? null : new Date(firstMs),
      last_time: totals.lastTimeMs === null ? null : new Date(totals.lastTimeMs),
      imported_at: this.deps.clock.now(),
    };
    const earlier = await this.deps.sql.begin(async (tx) => {
      const before = await log.recordImport(tx, record);
      if (before) return before;
      await addBatch(tx, { delivery, viewers });
      await q.addServed(tx, source.id, totals.served);
      return null;
    });
    const shown = earlier ?? record;
    return {
      file: path,
      digest,
      imported: earlier === null,
      imported_at: shown.imported_at.toISOString(),
      lines: shown.lines,
      skipped: shown.skipped,
      delivered_bytes: shown.delivered_bytes,
      first_time: shown.first_time?.toISOString() ?? null,
      last_time: shown.last_time?.toISOString() ?? null,
    };
  }
}
