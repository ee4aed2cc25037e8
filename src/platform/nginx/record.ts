import { existsSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';

/**
 * nginx-rtmp's recordings of a stream's publish sessions (`record_unique`: `<name>-<unix time>.flv`
 * in the record path, or `<name>-<unix time>.<nnn>.flv` once set aside, see setAsideSessions),
 * oldest first. Each grows from the session's first frame until the publisher leaves.
 */
export function recordedSessions(recordDir: string, name: string): string[] {
  if (!existsSync(recordDir)) return [];
  return readdirSync(recordDir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.flv'))
    .sort()
    .map((f) => join(recordDir, f));
}

/**
 * nginx-rtmp names a session's recording after the second it started and opens it truncating: a
 * publisher that reconnects within the same second would wipe its last session's media. Called
 * before a publisher is admitted (nginx opens the new file only after that answer), this gives
 * every earlier session of the stream still under nginx's name a name of its own,
 * `<name>-<unix time>.<nnn>.flv`, which sorts after the earlier seconds and before the plain name
 * nginx may now reuse (`.0` < `.f`), so recordedSessions stays in publishing order. A session
 * nginx is still writing (a publisher about to be replaced) keeps being written: renaming an open
 * file does not move its writes. Returns how many were set aside.
 */
export function setAsideSessions(recordDir: string, name: string): number {
  if (!existsSync(recordDir)) return 0;
  const files = readdirSync(recordDir);
  let moved = 0;
  for (const file of files) {
    const m = /^(.+)-(\d+)\.flv$/.exec(file);
    if (m?.[1] !== name) continue;
    const stem = `${name}-${m[2]}`;
    const taken = new Set(files.filter((f) => f.startsWith(`${stem}.`)));
    let n = 0;
    while (taken.has(`${stem}.${String(n).padStart(3, '0')}.flv`)) n++;
    renameSync(join(recordDir, file), join(recordDir, `${stem}.${String(n).padStart(3, '0')}.flv`));
    moved++;
  }
  return moved;
}
