import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import { packageRoot } from '../core/package-root.js';
import { spawnDetached } from '../platform/process/detached.js';
import { OperatorError } from './errors.js';
import { isAlive, sleep } from './pid.js';
import { apiHealthy, nginxHealthy } from './status.js';

/** The last `n` lines written to `file` since byte `from` (reads at most the last 64 KB). */
function linesSince(file: string, from: number, n = 20): string[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(from, size - 64 * 1024);
    const buffer = Buffer.alloc(Math.max(0, size - start));
    readSync(fd, buffer, 0, buffer.length, start);
    return buffer.toString('utf8').trimEnd().split('\n').slice(-n);
  } finally {
    closeSync(fd);
  }
}

/** The message of a log line at error level or above; null for anything else. */
function errorMessage(line: string): string | null {
  try {
    const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    return typeof entry.level === 'number' && entry.level >= 50 && typeof entry.msg === 'string' ? entry.msg : null;
  } catch {
    return null;
  }
}

/**
 * `svc up --detach`: the same CLI in the foreground mode, in its own session with output to the
 * log file; returns once the API (which answers only when the database does) and nginx answer.
 */
export async function startDetached(opts: {
  config: Config;
  args: string[];
  progress: (line: string) => void;
  timeoutMs?: number;
}): Promise<number> {
  const { config } = opts;
  const log = dataPaths(config.dataDir).applianceLog;
  mkdirSync(dirname(log), { recursive: true });
  const startOffset = existsSync(log) ? statSync(log).size : 0;
  const child = spawnDetached(
    process.execPath,
    [join(packageRoot, 'bin', 'run.js'), 'up', '--data-dir', config.dataDir, '--detached-child', ...opts.args],
    log,
  );
  if (!child) throw new OperatorError('start_failed', `could not start ${process.execPath}: see ${log}`);
  const { pid } = child;

  const newLogLines = () => linesSince(log, startOffset);
  const started = performance.now();
  const deadline = started + (opts.timeoutMs ?? 120_000);
  let nextNote = started + 3000;
  opts.progress(`starting svc (pid ${pid}); logs: ${log}`);
  while (performance.now() < deadline) {
    const exited = child.exited();
    if (exited || !isAlive(pid)) {
      const tail = newLogLines();
      // The child's own last words (base command's one-line error, a JSON line) name the cause.
      const reason = tail.map(errorMessage).filter(Boolean).at(-1);
      throw new OperatorError(
        'start_failed',
        `svc exited (${exited ?? 'unknown status'}) before it answered${reason ? `: ${reason}` : ''}; see ${log}`,
        { log_tail: tail },
      );
    }
    if ((await apiHealthy(config, 1000)) && (await nginxHealthy(config, 1000))) return pid;
    if (performance.now() >= nextNote) {
      opts.progress(
        `waiting for ${config.publicUrls.base_url}/healthz (${Math.round((performance.now() - started) / 1000)} s)`,
      );
      nextNote += 5000;
    }
    await sleep(200);
  }
  // Do not leave a half-started appliance behind.
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
  throw new OperatorError(
    'start_timeout',
    `svc did not answer ${config.publicUrls.base_url}/healthz within ${Math.round((deadline - started) / 1000)} s and was stopped; see ${log}`,
    { log_tail: newLogLines() },
  );
}
