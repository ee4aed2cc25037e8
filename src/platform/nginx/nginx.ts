import { chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Config } from '../../config/config.js';
import { dataPaths } from '../../config/paths.js';
import type { Logger } from '../../core/logger.js';
import { packageRoot } from '../../core/package-root.js';
import { run } from '../process/run.js';
import type { Supervised, Supervisor } from '../process/supervisor.js';
import { lookupUser, openForTraversal, type SystemUser } from '../system/users.js';
import { nginxArgs, renderNginxConfig, RTMP_MODULE, type NginxConfigInput } from './config.js';

/** What `poster_url` shows before a stream's first still (copied next to the stills, where workers can read it). */
const DEFAULT_POSTER = 'poster.svg';
/** nginx workers drop to this user when the appliance runs as root. */
const WORKER_USERS = ['www-data', 'nobody'];

export interface NginxOptions extends Pick<NginxConfigInput, 'secret' | 'hooksUrl'> {
  config: Config;
  logger: Logger;
}

/** A GET on nginx's control socket (`/stat`, `/control/...`); the body on 200. */
export function controlRequest(socketPath: string, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path, timeout: 2000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`nginx ${path}: HTTP ${res.statusCode}`))));
    });
    req.on('timeout', () => req.destroy(new Error(`nginx ${path}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * nginx with the rendered config, supervised: rtmp ingest, the signed CDN origin and a control
 * socket (rtmp_stat, rtmp_control) that only the appliance can reach.
 */
export class NginxIngest {
  private proc: Supervised | null = null;
  private user: SystemUser | null = null;
  private healthy = false;

  constructor(private readonly opts: NginxOptions) {}

  /** Ingest is up: nginx runs and its last statistics read answered. */
  get ready(): boolean {
    return this.proc?.running === true && this.healthy;
  }

  get restarts(): number {
    return this.proc?.restarts ?? 0;
  }

  async start(supervisor: Supervisor): Promise<void> {
    const { config, logger } = this.opts;
    if (!existsSync(RTMP_MODULE)) throw new Error(`nginx's RTMP module is missing (${RTMP_MODULE}): run \`svc init\` or \`apt-get install -y libnginx-mod-rtmp\``);
    this.user = await this.workerUser();
    this.prepareDirectories();
    await this.writeConfig();
    this.stopStale();
    const paths = dataPaths(config.dataDir);
    this.proc = supervisor.spawn({
      name: 'nginx',
      file: config.live.nginx_path,
      args: nginxArgs(paths.nginx, paths.nginxConf),
      logger,
      // Fast shutdown: a graceful one waits for every publisher to hang up, and a worker that
      // outlives its master keeps the log pipe open.
      stopSignal: 'SIGTERM',
      restart: () => true,
      // nginx unlinks its unix socket only when it exits cleanly.
      prepare: () => rmSync(paths.nginxControl, { force: true }),
      onExit: () => (this.healthy = false),
    });
    await this.waitUntilReady(10_000);
  }

  /** Re-renders the config, checks it and has nginx load it without dropping connections. */
  async reload(): Promise<void> {
    await this.writeConfig();
    this.proc?.signal('SIGHUP');
  }

  async stop(): Promise<void> {
    await this.proc?.stop();
    this.healthy = false;
  }

  /** nginx-rtmp's statistics XML; also the health probe. */
  async stat(): Promise<string> {
    try {
      const xml = await this.control('/stat');
      this.healthy = true;
      return xml;
    } catch (err) {
      this.healthy = false;
      throw err;
    }
  }

  /** Disconnects the publisher of a stream (nginx-rtmp's control endpoint); false when none was connected. */
  async dropPublisher(streamId: string): Promise<boolean> {
    const out = await this.control(`/control/drop/publisher?app=live&name=${encodeURIComponent(streamId)}`);
    return out.trim() !== '' && out.trim() !== '0';
  }

  private control(path: string): Promise<string> {
    return controlRequest(dataPaths(this.opts.config.dataDir).nginxControl, path);
  }

  private async waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      try {
        await this.stat();
        return;
      } catch (err) {
        if (performance.now() > deadline) throw new Error(`nginx did not answer within ${timeoutMs / 1000} s (${(err as Error).message}); see the appliance log`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  }

  private async workerUser(): Promise<SystemUser | null> {
    if (process.getuid?.() !== 0) return null;
    for (const name of WORKER_USERS) {
      const user = await lookupUser(name);
      if (user) return user;
    }
    throw new Error(`none of the users ${WORKER_USERS.join(', ')} exists for nginx's workers; create www-data`);
  }

  /** Workers (an unprivileged user when root) read the origin and write what publishers send. */
  private prepareDirectories(): void {
    const paths = dataPaths(this.opts.config.dataDir);
    for (const dir of [paths.nginx, join(paths.nginx, 'temp'), paths.run, paths.logs, paths.media, paths.ingest, paths.live, paths.origin, paths.recordings, paths.thumbs]) {
      mkdirSync(dir, { recursive: true });
    }
    writeFileSync(join(paths.thumbs, DEFAULT_POSTER), readFileSync(join(packageRoot, 'appliance', 'player', DEFAULT_POSTER)), { mode: 0o644 });
    if (!this.user) return;
    for (const dir of [this.opts.config.dataDir, paths.media, paths.origin, paths.recordings, paths.thumbs, paths.run]) openForTraversal(dir);
    chownSync(paths.ingest, this.user.uid, this.user.gid);
  }

  private async writeConfig(): Promise<void> {
    const paths = dataPaths(this.opts.config.dataDir);
    const { config, secret, hooksUrl } = this.opts;
    const text = renderNginxConfig({ config, secret, hooksUrl, user: this.user?.name ?? null });
    const tmp = `${paths.nginxConf}.new`;
    writeFileSync(tmp, text, { mode: 0o600 });
    try {
      await run(config.live.nginx_path, nginxArgs(paths.nginx, tmp, { test: true }));
    } catch (err) {
      rmSync(tmp, { force: true });
      throw new Error(`the rendered nginx config does not load: ${(err as Error).message}`);
    }
    renameSync(tmp, paths.nginxConf);
  }

  /** A master left by an appliance that was killed would hold the ports: stop it first. */
  private stopStale(): void {
    const pidFile = dataPaths(this.opts.config.dataDir).nginxPid;
    if (!existsSync(pidFile)) return;
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    rmSync(pidFile, { force: true });
    if (!Number.isInteger(pid) || pid <= 1) return;
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmdline.includes(this.opts.config.dataDir)) return;
      // The supervisor started it as a group leader: its workers go too.
      process.kill(-pid, 'SIGKILL');
      this.opts.logger.warn({ pid }, 'stopped an nginx left running by an earlier start');
    } catch {
      // Not running any more.
    }
  }
}
