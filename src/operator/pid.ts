import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isAlive } from '../platform/process/proc.js';

export { isAlive };

/** An `svc up` process: guards against a stale pid file whose number now belongs to something else. */
function looksLikeSvcUp(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('up');
  } catch {
    return true;
  }
}

export function readPidFile(pidFile: string): number | null {
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/** The pid of the running appliance of this data dir, or null (a stale file counts as not running). */
export function runningPid(pidFile: string): number | null {
  const pid = readPidFile(pidFile);
  return pid !== null && isAlive(pid) && looksLikeSvcUp(pid) ? pid : null;
}

export function writePidFile(pidFile: string, pid = process.pid): void {
  mkdirSync(dirname(pidFile), { recursive: true });
  writeFileSync(pidFile, `${pid}\n`);
}

/** Removes the file only if it still names `pid` (a newer instance may have replaced it). */
export function removePidFile(pidFile: string, pid?: number): void {
  if (pid !== undefined && readPidFile(pidFile) !== pid) return;
  rmSync(pidFile, { force: true });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits until `pid` is gone; false on timeout. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(100);
  }
  return !isAlive(pid);
}
