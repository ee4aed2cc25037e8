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

/** What a detached start runs and how it knows the process is up. */
export interface DetachedSpec {
  /** The svc command run in its foreground mode (`['up']`, `['edge', 'up']`), with `--data-dir` and `--detached-child`. */
  command: string[];
  dataDir: string;
  /** Where its output goes (its own log). */
  logFile: string;
  /** How messages name it: `svc`, `the edge`. */
  name: string;
  /** Every part answers; asked every 200 ms. */
  ready: () => Promise<boolean>;
  /** What a slow start says it waits for. */
  waitingFor: string;
  args: string[];
  progress: (line: string) => void;
  timeoutMs?: number;
}

/**
 * `svc up --detach` and `svc edge up --detach`: the same CLI in the foreground mode, in its own
 * session with output to the log file; returns once `ready` says every part answers.
 */
export async function startDetachedProcess(spec: DetachedSpec): Promise<number> {
  const log = spec.logFile;
  mkdirSync(dirname(log), { recursive: true });
  const startOffset = existsSync(log) ? statSync(log).size : 0;
  const child = spawnDetached(
    process.execPath,
    [join(packageRoot, 'bin', 'run.js'), ...spec.command, '--data-dir', spec.dataDir, '--detached-child', ...spec.args],
    log,
  );
  if (!child) throw new OperatorError('start_failed', `could not start ${process.execPath}: see ${log}`);
  const { pid } = child;

  const newLogLines = () => linesSince(log, startOffset);
  const started = performance.now();
  const deadline = started + (spec.timeoutMs ?? 120_000);
  let nextNote = started + 3000;
  spec.progress(`starting ${spec.name} (pid ${pid}); logs: ${log}`);
  while (performance.now() < deadline) {
    const exited = child.exited();
    if (exited || !isAlive(pid)) {
      const tail = newLogLines();
      // The child's own last words (base command's one-line error, a JSON line) name the cause.
      const reason = tail.map(errorMessage).filter(Boolean).at(-1);
      throw new OperatorError(
        'start_failed',
        `${spec.name} exited (${exited ?? 'unknown status'}) before it answered${reason ? `: ${reason}` : ''}; see ${log}`,
        { log_tail: tail },
      );
    }
    if (await spec.ready()) return pid;
    if (performance.now() >= nextNote) {
      spec.progress(`waiting for ${spec.waitingFor} (${Math.round((performance.now() - started) / 1000)} s)`);
      nextNote += 5000;
    }
    await sleep(200);
  }
  // Do not leave a half-started process behind.
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
  throw new OperatorError(
    'start_timeout',
    `${spec.name} did not answer ${spec.waitingFor} within ${Math.round((deadline - started) / 1000)} s and was stopped; see ${log}`,
    { log_tail: newLogLines() },
  );
}

/** `svc up --detach`: returns once the API (which answers only when the database does) and nginx answer. */
export function startDetached(opts: {
  config: Config;
  args: string[];
  progress: (line: string) => void;
  timeoutMs?: number;
}): Promise<number> {
  const { config } = opts;
  return startDetachedProcess({
    command: ['up'],
    dataDir: config.dataDir,
    logFile: dataPaths(config.dataDir).applianceLog,
    name: 'svc',
    ready: async () => (await apiHealthy(config, 1000)) && (await nginxHealthy(config, 1000)),
    waitingFor: `${config.publicUrls.base_url}/healthz`,
    args: opts.args,
    progress: opts.progress,
    timeoutMs: opts.timeoutMs,
  });
}
