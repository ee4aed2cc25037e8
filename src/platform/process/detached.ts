import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';

export interface DetachedChild {
  pid: number;
  /** How it ended (`exit code N`, `signal X`) if it already has; null while it runs. */
  exited(): string | null;
}

/**
 * Starts a program in its own session that outlives this process, its output appended to
 * `logFile` (`svc up --detach`), with this process's environment. Null when it could not be started.
 */
export function spawnDetached(file: string, args: string[], logFile: string): DetachedChild | null {
  const logFd = openSync(logFile, 'a', 0o600);
  const child = spawn(file, args, { detached: true, stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  child.unref();
  if (child.pid === undefined) return null;
  let exited: string | null = null;
  child.on('exit', (code, signal) => (exited = signal ? `signal ${signal}` : `exit code ${code}`));
  return { pid: child.pid, exited: () => exited };
}
