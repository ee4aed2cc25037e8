import { existsSync, renameSync, statSync } from 'node:fs';
import { copyFile, truncate } from 'node:fs/promises';
import type { Logger } from '../../core/logger.js';

export interface RotationSettings {
  /** A file larger than this is rotated. */
  max_bytes: number;
  /** Rotated files kept: `<file>.1` (newest) to `<file>.<keep>`. */
  keep: number;
}

/**
 * Rotates `file` if it is larger than `max_bytes`: older copies shift up one number (the oldest
 * is dropped), the file is copied to `<file>.1`, then truncated in place. Copy-and-truncate, not
 * rename, because every writer of our logs (pino, nginx, PostgreSQL's `pg_ctl -l`, the detached
 * appliance's own stdout) appends (O_APPEND) to a descriptor it opened once and cannot be asked
 * to reopen: after the truncation they go on writing at the start of the same file. A line
 * written between the copy and the truncation is lost. True when it rotated.
 */
export async function rotateIfLarge(file: string, settings: RotationSettings): Promise<boolean> {
  if (!existsSync(file) || statSync(file).size <= settings.max_bytes) return false;
  for (let n = settings.keep - 1; n >= 1; n--) {
    if (existsSync(`${file}.${n}`)) renameSync(`${file}.${n}`, `${file}.${n + 1}`);
  }
  await copyFile(file, `${file}.1`);
  await truncate(file, 0);
  return true;
}

/**
 * Checks `files` now and every `check_seconds`; a check never overlaps the previous one. Runs in
 * the appliance process, needs no database and no outside tool. Returns its stop.
 */
export function startLogRotation(opts: {
  files: string[];
  settings: RotationSettings & { check_seconds: number };
  logger: Logger;
}): () => void {
  let busy = false;
  const check = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const file of opts.files) {
        try {
          if (await rotateIfLarge(file, opts.settings))
            opts.logger.info({ file, kept: opts.settings.keep }, 'log rotated');
        } catch (err) {
          opts.logger.warn({ file, err }, 'log rotation failed; will retry');
        }
      }
    } finally {
      busy = false;
    }
  };
  void check();
  const timer = setInterval(() => void check(), opts.settings.check_seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
