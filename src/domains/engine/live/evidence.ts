import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../../../config/paths.js';

/**
 * When this stream's media last reached the appliance: the newest modification time among
 * nginx-rtmp's recording of its publish sessions (`<id>-<unix time>.flv`, written as the
 * publisher's bytes arrive, also while the appliance is down) and its segments in the work folder.
 * Null when nothing is on disk.
 */
export function lastMediaAt(dataDir: string, streamId: string): Date | null {
  const paths = dataPaths(dataDir);
  const candidates: string[] = [];
  const add = (dir: string, keep: (name: string) => boolean) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) if (keep(name)) candidates.push(join(dir, name));
  };
  add(paths.ingest, (f) => f.startsWith(`${streamId}-`) && f.endsWith('.flv'));
  // The work folder keeps each segment as long as the origin does (the origin may be another machine's).
  add(join(paths.live, streamId), (f) => f.endsWith('.ts'));
  let newest: Date | null = null;
  for (const file of candidates) {
    try {
      const { mtime } = statSync(file);
      if (newest === null || mtime > newest) newest = mtime;
    } catch {
      // Pruned meanwhile.
    }
  }
  return newest;
}
