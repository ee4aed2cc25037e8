import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { ObjectStore } from '../../../platform/storage/store.js';

/** How long after its end a stream's folder leaves the origin (players finishing the last segments). */
export const ORIGIN_LINGER_SECONDS = 60;

export interface OriginCleanupOptions {
  /** Where the origin is (`origin/<stream id>/`). */
  store: ObjectStore;
  /**
   * The origin's folder on this machine, swept for what nobody ended; null on an ingest node (the
   * node that holds the origin sweeps it: it sees the folders' ages).
   */
  sweepDir: string | null;
  clock: Clock;
  logger: Logger;
  /** A stream this node still works on keeps its folder. */
  inUse: (streamId: string) => boolean;
}

/**
 * Folders of finished streams leave the origin: replays are made from the recording, not from these. A folder goes a minute after
 * its stream ended on the node that ran it, and a sweep on the origin's node catches those whose
 * end no node saw through (another node ended them, a node was down).
 */
export class OriginCleanup {
  constructor(private readonly o: OriginCleanupOptions) {}

  removeLater(streamId: string): void {
    setTimeout(() => void this.remove(streamId), ORIGIN_LINGER_SECONDS * 1000).unref();
  }

  /** Removes every folder older than the linger time whose stream is not in `live`. */
  sweep(live: Iterable<string>): void {
    const root = this.o.sweepDir;
    if (root === null || !existsSync(root)) return;
    const keep = new Set(live);
    const cutoff = this.o.clock.now().getTime() - ORIGIN_LINGER_SECONDS * 1000;
    for (const name of readdirSync(root)) {
      if (!keep.has(name) && statSync(join(root, name)).mtimeMs < cutoff) void this.remove(name);
    }
  }

  private async remove(streamId: string): Promise<void> {
    if (this.o.inUse(streamId)) return;
    // Not found again by this node if it fails: the origin's sweep takes it later.
    await this.o.store
      .deletePrefix(`origin/${streamId}/`)
      .catch((err: unknown) => this.o.logger.warn({ err, stream_id: streamId }, 'origin folder not removed'));
  }
}
