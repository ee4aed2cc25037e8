import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { dataPaths } from '../../config/paths.js';
import type { Logger } from '../../core/logger.js';
import {
  commandLine,
  isAlive,
  killAll,
  listenersOf,
  processesInGroup,
  stopGroup,
  waitUntilGone,
} from '../process/proc.js';
import { run } from '../process/run.js';
import type { ProcessExit, Supervised, Supervisor } from '../process/supervisor.js';
import { privateFile } from '../system/data-dir.js';
import { nginxStartFailure, type PortSettings } from './start-failure.js';
import { nginxArgs } from './config.js';

/** A GET on nginx's control socket (`/stat`, `/control/...`); the body on 200. */
export function controlRequest(socketPath: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, timeout: 2000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(body) : reject(new Error(`nginx ${path}: HTTP ${res.statusCode}`)),
      );
    });
    req.on('timeout', () => req.destroy(new Error(`nginx ${path}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/** How often an adopted master is checked for life (it is not our child: no exit event). */
const ADOPTED_CHECK_MS = 500;
/** A master's fast shutdown (SIGTERM) gets this long before SIGKILL. */
const STOP_TIMEOUT_MS = 5000;
/**
 * How long a start waits for an nginx that runs but does not answer yet. nginx gives up by itself
 * when it cannot bind (five tries, half a second apart) and its exit ends the wait at once, so
 * this bounds only an nginx that is alive and slow: a loaded machine.
 */
const READY_TIMEOUT_MS = 60_000;
/** How long the processes of an earlier nginx get to go after SIGKILL, so that their ports are free. */
const GONE_TIMEOUT_MS = 5000;

/**
 * The master an earlier appliance of this data dir started and left running (it was killed with
 * SIGKILL): its pid file names a live process whose command line holds this data dir's config.
 */
export function previousMaster(dataDir: string): number | null {
  const paths = dataPaths(dataDir);
  const pid = pidFileMaster(dataDir);
  if (pid === null || !isAlive(pid)) return null;
  // nginx rewrites its title: "nginx: master process /usr/sbin/nginx -e stderr -p <prefix> -c <conf>".
  return commandLine(pid)?.join(' ').includes(paths.nginxConf) ? pid : null;
}

/**
 * nginx's workers outlive a master killed with SIGKILL (they stay in its process group, listening
 * on its ports and control socket): the processes of the dead master `pid`'s group that are nginx.
 * While they run, a new master can bind none of its ports.
 */
export function orphanedWorkers(pid: number): number[] {
  if (isAlive(pid)) return [];
  return processesInGroup(pid).filter((p) => commandLine(p)?.[0]?.startsWith('nginx: ') === true);
}

/** The pid an nginx pid file names, or null. */
function pidFileMaster(dataDir: string): number | null {
  const file = dataPaths(dataDir).nginxPid;
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 1 ? pid : null;
}

/** nginx's stub_status: open client connections, and those reading a request, writing an answer, idle (keep-alive). */
export interface NginxConnections {
  active: number;
  reading: number;
  writing: number;
  waiting: number;
}

/** "Active connections: 3 \n server accepts handled requests\n 9 9 12 \nReading: 0 Writing: 1 Waiting: 2 \n"; null when it is not that. */
export function parseStubStatus(text: string): NginxConnections | null {
  const number = (label: string) => Number(new RegExp(`${label}:\\s*(\\d+)`).exec(text)?.[1] ?? NaN);
  const c = {
    active: number('Active connections'),
    reading: number('Reading'),
    writing: number('Writing'),
    waiting: number('Waiting'),
  };
  return Object.values(c).every(Number.isFinite) ? c : null;
}

/** What differs between the nginx of an appliance (NginxIngest) and an edge's (EdgeNginx). */
export interface NginxServerSpec {
  /** Its files are the data dir's nginx files (dataPaths: conf, pid, control socket, CDN log). */
  dataDir: string;
  nginxPath: string;
  logger: Logger;
  /** The modules the config loads and the Debian package of each. */
  modules: readonly { file: string; pkg: string }[];
  /** The config's text now. */
  render: () => string;
  /** Writes what the master reads at start (njs scripts) before the config is checked. */
  prepareFiles: () => void;
  /** A GET on the control socket that answers once nginx serves (`/stat`, `/connections`). */
  probePath: string;
  /** The ports a failed bind is looked up in, and the file that sets them (`config.json`). */
  settings: PortSettings;
  settingsFile: string;
  /** Where its output ends up, for a start that failed ("the appliance log"). */
  logName: string;
}

/**
 * An nginx master with the rendered config, supervised, with a control socket only this process
 * can reach.
 *
 * A master left by a start that was killed is adopted when its config is the one this start
 * renders and it answers: its connections (publishers, viewers) stay. It is watched by its pid
 * (it is not our child) and replaced by a supervised one when it exits. Any other leftover is
 * killed so that the new master gets the ports.
 */
export class SupervisedNginx {
  private proc: Supervised | null = null;
  private adopted: number | null = null;
  private adoptedWatch: NodeJS.Timeout | null = null;
  private adoptedLost = 0;
  private supervisor: Supervisor | null = null;
  private healthy = false;
  /** A start waits for this nginx to answer. */
  private starting = false;
  private stopped = false;
  /** How the last nginx this object spawned exited; null while it runs. */
  private lastExit: ProcessExit | null = null;

  constructor(private readonly spec: NginxServerSpec) {}

  /** nginx runs and its last probe answered. */
  get ready(): boolean {
    return (this.proc?.running === true || this.adopted !== null) && this.healthy;
  }

  get restarts(): number {
    return (this.proc?.restarts ?? 0) + this.adoptedLost;
  }

  /** The pid of an adopted master, null when this start's own nginx runs. */
  get adoptedPid(): number | null {
    return this.adopted;
  }

  async start(supervisor: Supervisor): Promise<void> {
    const { dataDir, logger } = this.spec;
    for (const m of this.spec.modules) {
      if (!existsSync(m.file))
        throw new Error(`an nginx module is missing (${m.file}): run \`svc init\` or \`apt-get install -y ${m.pkg}\``);
    }
    this.supervisor = supervisor;
    this.stopped = false;
    this.spec.prepareFiles();
    const changed = await this.writeConfig();
    const previous = previousMaster(dataDir);
    if (previous !== null) {
      // A reload would not do: nginx-rtmp serves a stream within one worker, and the publisher
      // would stay on the old worker while new ladders reach the new one.
      if (!changed && (await this.answers())) {
        this.adopt(previous);
        return;
      }
      const group = [previous, ...processesInGroup(previous)];
      killAll([previous]);
      logger.warn(
        { pid: previous, reason: changed ? 'its config is not the one rendered now' : 'it does not answer' },
        'stopped an nginx left running by an earlier start',
      );
      // SIGKILL is not instant: its ports are free once every process of its group is gone.
      await waitUntilGone(group, GONE_TIMEOUT_MS);
    }
    await this.stopOrphanedWorkers();
    rmSync(dataPaths(dataDir).nginxPid, { force: true });
    this.starting = true;
    try {
      this.spawn();
      await this.waitUntilReady(READY_TIMEOUT_MS);
    } catch (err) {
      await this.proc?.stop();
      throw err;
    } finally {
      this.starting = false;
    }
  }

  /** Workers of a master that died by SIGKILL (the pid file names it), which would keep its ports from the new one. */
  private async stopOrphanedWorkers(): Promise<void> {
    const master = pidFileMaster(this.spec.dataDir);
    const orphans = master === null ? [] : orphanedWorkers(master);
    if (orphans.length === 0) return;
    for (const pid of orphans) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    this.spec.logger.warn(
      { master, pids: orphans },
      'stopped the workers of an nginx master that was killed: they held its ports',
    );
    await waitUntilGone(orphans, GONE_TIMEOUT_MS);
  }

  private adopt(pid: number): void {
    this.adopted = pid;
    this.spec.logger.warn({ pid }, 'adopted the nginx an earlier start left running: its connections stay');
    this.adoptedWatch = setInterval(() => {
      if (isAlive(pid)) return;
      if (this.adoptedWatch) clearInterval(this.adoptedWatch);
      this.adoptedWatch = null;
      this.adopted = null;
      this.healthy = false;
      this.adoptedLost++;
      this.spec.logger.warn({ pid }, 'the adopted nginx exited; starting a new one');
      void this.stopOrphanedWorkers().then(() => {
        if (!this.stopped) this.spawn();
      });
    }, ADOPTED_CHECK_MS);
  }

  private spawn(): void {
    const { dataDir, logger } = this.spec;
    const paths = dataPaths(dataDir);
    this.lastExit = null;
    this.proc = (this.supervisor as Supervisor).spawn({
      name: 'nginx',
      file: this.spec.nginxPath,
      args: nginxArgs(paths.nginx, paths.nginxConf),
      logger,
      // Fast shutdown: a graceful one waits for every publisher to hang up, and a worker that
      // outlives its master keeps the log pipe open.
      stopSignal: 'SIGTERM',
      stopTimeoutMs: STOP_TIMEOUT_MS,
      // While a start waits for it, an exit fails the start with nginx's reason: restarting an
      // nginx that cannot bind only hides why.
      restart: () => !this.starting,
      // nginx unlinks its unix socket only when it exits cleanly.
      // The CDN log made here, not by nginx, which would make it readable by every local user. Not
      // when adopting a master: one told to reopen after a rotation that it never got still writes
      // the rotated file, and the reader takes an existing new file for its reopening.
      prepare: () => {
        rmSync(paths.nginxControl, { force: true });
        privateFile(paths.cdnLog);
      },
      onExit: (exit) => {
        this.healthy = false;
        this.lastExit = exit;
      },
    });
  }

  /** Re-renders the config, checks it and has nginx load it without dropping connections. */
  async reload(): Promise<void> {
    await this.writeConfig();
    if (this.adopted !== null) process.kill(this.adopted, 'SIGHUP');
    else this.proc?.signal('SIGHUP');
  }

  /**
   * Has nginx reopen its log files (SIGUSR1 to the master): after the CDN log reader renamed the
   * CDN log, nginx writes a new one. False when no nginx runs (the next one opens a new file).
   */
  reopenLogs(): boolean {
    // Made here, not by nginx: nginx would make it readable by every local user.
    privateFile(dataPaths(this.spec.dataDir).cdnLog);
    if (this.adopted !== null) {
      try {
        process.kill(this.adopted, 'SIGUSR1');
        return true;
      } catch {
        return false;
      }
    }
    return this.proc?.signal('SIGUSR1') ?? false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.adoptedWatch) clearInterval(this.adoptedWatch);
    this.adoptedWatch = null;
    if (this.adopted !== null) {
      await stopGroup(this.adopted, 'SIGTERM', STOP_TIMEOUT_MS);
      this.adopted = null;
    }
    await this.proc?.stop();
    this.healthy = false;
  }

  /** The probe's answer (nginx-rtmp's statistics XML, stub_status); a failure marks nginx down. */
  protected async probe(): Promise<string> {
    try {
      const body = await this.control(this.spec.probePath);
      this.healthy = true;
      return body;
    } catch (err) {
      this.healthy = false;
      throw err;
    }
  }

  /** nginx's HTTP connections now (stub_status): viewers of the CDN, the player site, chat readers. */
  async connections(): Promise<NginxConnections | null> {
    return parseStubStatus(await this.control('/connections'));
  }

  protected control(path: string): Promise<string> {
    return controlRequest(dataPaths(this.spec.dataDir).nginxControl, path);
  }

  private async answers(): Promise<boolean> {
    try {
      await this.probe();
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Waits for the control socket to answer. An nginx that exits first (a port taken, a file it
   * cannot open) ends the wait at once, in its own words; one that runs gets `timeoutMs`.
   */
  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      try {
        await this.probe();
        return;
      } catch (err) {
        const exit = this.lastExit;
        if (exit)
          throw new Error(
            this.failure(exit.output, `exited (${exit.signal ?? `code ${exit.code}`}) before it answered`),
          );
        if (performance.now() > deadline) {
          const what = `runs (pid ${this.proc?.pid}) but did not answer its control socket within ${timeoutMs / 1000} s (${(err as Error).message})`;
          throw new Error(`${this.failure(this.proc?.recentOutput ?? [], what)}; see ${this.spec.logName}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  private failure(output: readonly string[], what: string): string {
    const holders = (port: number) =>
      listenersOf(port).map((pid) => ({ pid, command: commandLine(pid)?.join(' ') ?? '?' }));
    return nginxStartFailure({ output, what, config: this.spec.settings, file: this.spec.settingsFile, holders });
  }

  /** Renders, checks and installs the config; true when it differs from the one installed before. */
  private async writeConfig(): Promise<boolean> {
    const paths = dataPaths(this.spec.dataDir);
    const text = this.spec.render();
    const tmp = `${paths.nginxConf}.new`;
    writeFileSync(tmp, text, { mode: 0o600 });
    try {
      await run(this.spec.nginxPath, nginxArgs(paths.nginx, tmp, { test: true }));
    } catch (err) {
      rmSync(tmp, { force: true });
      throw new Error(`the rendered nginx config does not load: ${(err as Error).message}`);
    }
    const changed = !existsSync(paths.nginxConf) || readFileSync(paths.nginxConf, 'utf8') !== text;
    renameSync(tmp, paths.nginxConf);
    return changed;
  }
}
