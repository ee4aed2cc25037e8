import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../../core/clock.js';

/** How long after its end a stream's folder leaves the origin (players finishing the last segments). */
export const ORIGIN_LINGER_SECONDS = 60;

/**
 * Folders of finished streams leave the origin: there is no replay. A folder goes a minute after
 * its stream ended here, and a sweep catches those whose end this node did not see (another
 * node ended them, the appliance was down).
 */
export class OriginCleanup {
  constructor(
    private readonly root: string,
    private readonly clock: Clock,
    /** A stream this node still works on keeps its folder. */
    private readonly inUse: (streamId: string) => boolean,
  ) {}

  removeLater(streamId: string): void {
    setTimeout(() => this.remove(streamId), ORIGIN_LINGER_SECONDS * 1000).unref();
  }

  /** Removes every folder older than the linger time whose stream is not in `live`. */
  sweep(live: Iterable<string>): void {
    if (!existsSync(this.root)) return;
    const keep = new Set(live);
    const cutoff = this.clock.now().getTime() - ORIGIN_LINGER_SECONDS * 1000;
    for (const name of readdirSync(this.root)) {
      if (!keep.has(name) && statSync(join(this.root, name)).mtimeMs < cutoff) this.remove(name);
    }
  }

  private remove(streamId: string): void {
    if (this.inUse(streamId)) return;
    rmSync(join(this.root, streamId), { recursive: true, force: true });
  }
}
