import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../../../core/logger.js';
import { Repeater } from '../../../core/repeater.js';
import type { Db } from '../../../platform/db/connect.js';
import { SpoolFullError, type Spool } from '../../../platform/storage/spool.js';
import { endedAmong } from './queries.js';

/** Where a stream's still is kept, on the origin's disk (under `media/`) and in the bucket. */
export const stillKey = (streamId: string): string => `thumbs/${streamId}.jpg`;

const STILL = /^(str_[a-z0-9]{20})\.jpg$/;
const EVERY_MS = 10_000;

export interface StillShelfDeps {
  sql: Db;
  /** The origin's stills (`media/thumbs/`), where the thumbnailers of every node write. */
  thumbsDir: string;
  spool: Spool;
  logger: Logger;
  everyMs?: number;
}

/**
 * With object storage, an ended stream's last still moves to the bucket (docs/decisions.md,
 * "Object storage: stills"): the origin's disk keeps only those of streams that can still change.
 * nginx serves the local file while there is one, else the bucket's through a presigned address.
 */
export class StillShelf {
  private readonly repeater: Repeater;

  constructor(private readonly deps: StillShelfDeps) {
    this.repeater = new Repeater(() => this.shelveQuietly(), deps.everyMs ?? EVERY_MS);
  }

  start(): () => Promise<void> {
    this.repeater.start();
    return () => this.repeater.stop();
  }

  /** Spools the stills of ended streams (the local file goes once uploaded); how many were spooled. */
  async shelve(): Promise<number> {
    const { thumbsDir, spool, sql } = this.deps;
    const ids = (await readdir(thumbsDir)).flatMap((f) => STILL.exec(f)?.[1] ?? []);
    const waiting = ids.filter((id) => !spool.holds(stillKey(id)));
    if (!waiting.length) return 0;
    let spooled = 0;
    for (const id of await endedAmong(sql, waiting)) {
      const file = join(thumbsDir, `${id}.jpg`);
      try {
        await spool.enqueue(stillKey(id), file, {
          contentType: 'image/jpeg',
          cacheControl: 'public, max-age=10',
          removeAfter: file,
        });
        spooled++;
      } catch (err) {
        // Full: the still stays on disk (and served from there) for a later round.
        if (err instanceof SpoolFullError) break;
        throw err;
      }
    }
    return spooled;
  }

  private async shelveQuietly(): Promise<void> {
    try {
      const spooled = await this.shelve();
      if (spooled) this.deps.logger.debug({ stills: spooled }, 'stills of ended streams spooled to object storage');
    } catch (err) {
      this.deps.logger.warn({ err }, 'stills of ended streams not spooled; tried again');
    }
  }
}
