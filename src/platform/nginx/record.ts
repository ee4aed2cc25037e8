import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * nginx-rtmp's recordings of a stream's publish sessions (`record_unique`: `<name>-<unix time>.flv`
 * in the record path), oldest first. Each grows from the session's first frame until the
 * publisher leaves.
 */
export function recordedSessions(recordDir: string, name: string): string[] {
  if (!existsSync(recordDir)) return [];
  return readdirSync(recordDir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.flv'))
    .sort()
    .map((f) => join(recordDir, f));
}
