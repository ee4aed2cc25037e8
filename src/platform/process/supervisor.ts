import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { execa, type ResultPromise } from 'execa';
import type { Logger } from '../../core/logger.js';

/** util-linux (Essential on Debian): runs a command with a parent-death signal, which Node cannot set. */
export const SETPRIV = '/usr/bin/setpriv';
/** setpriv's exit code when the command itself is missing. */
const EXEC_ENOENT = 127;

export interface ProcessSpec {
  /** Shown in logs: `nginx`, `ladder str_...`. */
  name: string;
  file: string;
  args: string[];
  /** What the first start reads on stdin (its end is the input's end); later starts read none. */
  stdin?: Readable;
  /** The arguments of every start after the first (without `stdin`); default `args`. */
  restartArgs?: string[];
  /**
   * Made anew for every start, instead of `args` and `restartArgs`: for arguments that may serve
   * once (the WHIP relay's one-time credential), since every local user can read a command line.
   */
  freshArgs?: () => string[];
  /** What the log shows instead of `args` when they hold a secret. */
  logArgs?: string[];
  /**
   * Takes each output line instead of the log (a child whose output is data, or may hold a
   * secret: a restreaming push names its target with the key); the exit's `output` keeps none.
   */
  onOutput?: (line: string) => void;
  cwd?: string;
  logger: Logger;
  /** Decides after each exit whether to start again; a stop() in progress never restarts. */
  restart: (exit: ProcessExit) => boolean;
  /** Called before every start (nginx: remove the control socket a crash left behind). */
  prepare?: () => void;
  /** Called after every exit, before any restart. */
  onExit?: (exit: ProcessExit) => void;
  /** Signal for a clean stop (default SIGTERM). */
  stopSignal?: NodeJS.Signals;
  stopTimeoutMs?: number;
  /**
   * The kernel sends it SIGKILL when the appliance's process ends, however it ends (kill -9
   * included), through setpriv's parent-death signal. Without setpriv it runs as is, and the
   * next start finds it (see leftovers.ts).
   */
  dieWithParent?: boolean;
  /** A Node.js child with an IPC channel: its messages go here, and `send` reaches it. */
  onMessage?: (message: unknown) => void;
}

/** The argv that runs `spec`: wrapped by setpriv when it must die with the appliance and setpriv is there. */
export function launchArgv(
  spec: Pick<ProcessSpec, 'file' | 'args' | 'dieWithParent'>,
  setpriv: string | null,
): { file: string; args: string[] } {
  if (!spec.dieWithParent || setpriv === null) return { file: spec.file, args: spec.args };
  return { file: setpriv, args: ['--pdeathsig', 'SIGKILL', '--', spec.file, ...spec.args] };
}

export interface ProcessExit {
  code: number | null;
  signal: string | null;
  /** How long it ran, in ms. */
  ranMs: number;
  /** Its last lines of output (stderr and stdout): why it exited, in its own words. */
  output: string[];
}

/** How many of a process's last output lines an exit carries. */
const OUTPUT_LINES = 40;

const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
/** A process that ran this long is healthy again: the next crash restarts quickly. */
const STABLE_MS = 30_000;

/**
 * One child process kept running: stderr and stdout go to the log line by line, a crash is
 * restarted with exponential backoff, stop() sends the stop signal and SIGKILL after a timeout.
 */
export class Supervised {
  private child: ResultPromise | null = null;
  private stopping = false;
  private timer: NodeJS.Timeout | null = null;
  private backoffMs = FIRST_BACKOFF_MS;
  private exited: Promise<void> = Promise.resolve();
  /** The current (or last) process's last output lines. */
  private lines: string[] = [];
  restarts = 0;

  constructor(private readonly spec: ProcessSpec) {}

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** What the current (or last) process printed last, up to OUTPUT_LINES lines. */
  get recentOutput(): readonly string[] {
    return this.lines;
  }

  start(): void {
    if (this.stopping || this.child) return;
    const { spec } = this;
    spec.prepare?.();
    const started = performance.now();
    const first = this.restarts === 0;
    const args = spec.freshArgs?.() ?? (!first && spec.restartArgs ? spec.restartArgs : spec.args);
    const feed = first ? spec.stdin : undefined;
    const argv = launchArgv({ ...spec, args }, existsSync(SETPRIV) ? SETPRIV : null);
    const wrapped = argv.file !== spec.file;
    const child = execa(argv.file, argv.args, {
      cwd: spec.cwd,
      reject: false,
      stdin: feed ? 'pipe' : 'ignore',
      buffer: false,
      // Children die with the appliance when it exits without stopping them.
      cleanup: true,
      // Its own process group: whatever it forked (nginx's workers) goes with it.
      detached: true,
      ...(spec.onMessage ? { ipc: true, serialization: 'json' as const } : {}),
    });
    if (spec.onMessage) child.on('message', spec.onMessage);
    this.child = child;
    if (feed && child.stdin) {
      // A child that exits early closes its end: that is its exit to report, not an error here.
      child.stdin.on('error', () => undefined);
      // An input that failed is not an end: the child stops as if crashed (a restart reads no stdin).
      feed.on('error', (err) => {
        spec.logger.warn({ proc: spec.name, err }, 'input failed');
        child.kill('SIGTERM');
      });
      feed.pipe(child.stdin);
      child.once('exit', () => feed.destroy());
    }
    // On exit, not when its pipes close: a leftover of the group would hold them open.
    child.once('exit', () => killGroup(child.pid));
    spec.logger.debug({ proc: spec.name, pid: child.pid, args: spec.logArgs ?? args }, 'process started');
    const output: string[] = [];
    this.lines = output;
    const log = (chunk: Buffer) => {
      for (const raw of chunk.toString().split('\n')) {
        const line = raw.trim();
        if (!line) continue;
        if (spec.onOutput) {
          spec.onOutput(line);
          continue;
        }
        spec.logger.warn({ proc: spec.name }, line);
        output.push(line);
        if (output.length > OUTPUT_LINES) output.shift();
      }
    };
    child.stdout?.on('data', log);
    child.stderr?.on('data', log);
    this.exited = child.then(
      (result) =>
        this.onExit(
          child,
          { code: result.exitCode ?? null, signal: result.signal ?? null, ranMs: performance.now() - started, output },
          result.code === 'ENOENT' || (wrapped && result.exitCode === EXEC_ENOENT),
        ),
      (err: unknown) =>
        this.onExit(child, { code: null, signal: null, ranMs: performance.now() - started, output }, false, err),
    );
  }

  private onExit(child: ResultPromise, exit: ProcessExit, missing: boolean, err?: unknown): void {
    if (this.child !== child) return;
    this.child = null;
    const { spec } = this;
    if (missing)
      spec.logger.error(
        { proc: spec.name, file: spec.file },
        `${spec.file} not found: install it (svc init) or set its path in config.json`,
      );
    spec.onExit?.(exit);
    if (this.stopping) return;
    if (!spec.restart(exit)) {
      spec.logger.debug({ proc: spec.name, code: exit.code, signal: exit.signal, ranMs: exit.ranMs }, 'process exited');
      return;
    }
    if (exit.ranMs >= STABLE_MS) this.backoffMs = FIRST_BACKOFF_MS;
    const delay = this.backoffMs;
    this.backoffMs = Math.min(MAX_BACKOFF_MS, this.backoffMs * 2);
    this.restarts++;
    spec.logger.warn(
      { proc: spec.name, code: exit.code, signal: exit.signal, ranMs: exit.ranMs, err, restart_in_ms: delay },
      'process exited; restarting',
    );
    this.timer = setTimeout(() => {
      this.timer = null;
      this.start();
    }, delay);
  }

  /** Sends a message over the IPC channel (see `onMessage`); false when no process runs to take it. */
  send(message: unknown): boolean {
    const child = this.child;
    if (!child?.connected) return false;
    // A child that just died closes its channel: the message is lost with it, as it would be a moment later.
    child.send(
      message as never,
      (err) => err && this.spec.logger.debug({ proc: this.spec.name, err }, 'message not delivered'),
    );
    return true;
  }

  /** Sends a signal to the running process (nginx: SIGHUP reloads its config). */
  signal(name: NodeJS.Signals): boolean {
    return this.child?.kill(name) ?? false;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    const child = this.child;
    if (!child) return;
    child.kill(this.spec.stopSignal ?? 'SIGTERM');
    const timeout = setTimeout(() => child.kill('SIGKILL'), this.spec.stopTimeoutMs ?? 5000);
    await this.exited;
    clearTimeout(timeout);
  }

  /** Resolves when the current process has exited (immediately when none runs). */
  async waitForExit(): Promise<void> {
    await this.exited;
  }
}

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Nothing left in the group.
  }
}

/** The one owner of long-running children: everything it started is stopped by stopAll(). */
export class Supervisor {
  private readonly children = new Set<Supervised>();

  spawn(spec: ProcessSpec): Supervised {
    const proc = new Supervised(spec);
    this.children.add(proc);
    proc.start();
    return proc;
  }

  /** Stops one child and forgets it. */
  async release(proc: Supervised): Promise<void> {
    await proc.stop();
    this.children.delete(proc);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.children].map((c) => c.stop()));
    this.children.clear();
  }
}
