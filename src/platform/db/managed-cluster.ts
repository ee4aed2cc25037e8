import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../../config/config.js';
import { dataPaths } from '../../config/paths.js';
import type { Secrets } from '../../config/secrets.js';
import { run } from '../process/run.js';
import { privateFile } from '../system/data-dir.js';
import { assertReachable, lookupUser, type SystemUser } from '../system/users.js';
import { connect } from './connect.js';

/**
 * The appliance-owned PostgreSQL cluster: initdb + pg_ctl under the data dir, loopback only,
 * password auth. PostgreSQL refuses to run as root, so as root its files belong to, and its
 * server runs as, an unprivileged system user.
 */
export interface ManagedClusterOptions {
  /** PGDATA. */
  dir: string;
  port: number;
  password: string;
  logFile: string;
  binDir?: string | null;
  /** Logs progress lines. */
  onProgress?: (line: string) => void;
}

export const SUPERUSER = 'svc';
export const DATABASE = 'svc';
const POSTGRES_USERS = ['postgres', 'svc-postgres'];

export class ManagedCluster {
  constructor(private readonly opts: ManagedClusterOptions) {}

  get url(): string {
    return `postgres://${SUPERUSER}:${encodeURIComponent(this.opts.password)}@127.0.0.1:${this.opts.port}/${DATABASE}`;
  }

  get initialised(): boolean {
    return existsSync(join(this.opts.dir, 'PG_VERSION'));
  }

  async init(): Promise<void> {
    if (this.initialised) return;
    const user = await this.runAsUser();
    mkdirSync(this.opts.dir, { recursive: true, mode: 0o700 });
    if (user) {
      assertReachable(this.opts.dir, user.name, 'PostgreSQL');
      chownSync(this.opts.dir, user.uid, user.gid);
    }
    // Outside PGDATA: initdb wants an empty directory.
    const pwfile = join(dirname(this.opts.dir), '.pg-pwfile');
    writeFileSync(pwfile, this.opts.password + '\n', { mode: 0o600 });
    if (user) chownSync(pwfile, user.uid, user.gid);
    this.opts.onProgress?.('initialising the PostgreSQL cluster');
    try {
      await run(
        this.bin('initdb'),
        [
          '-D',
          this.opts.dir,
          '-U',
          SUPERUSER,
          '--pwfile',
          pwfile,
          '-A',
          'scram-sha-256',
          '-E',
          'UTF8',
          '--locale',
          'C',
          '--no-instructions',
        ],
        { user: user ?? undefined, cwd: this.opts.dir, timeoutMs: 120_000 },
      );
    } finally {
      rmSync(pwfile, { force: true });
    }
    // Settings owned by the appliance; rewritten at every start so port changes apply.
    writeFileSync(join(this.opts.dir, 'postgresql.conf'), "\ninclude_if_exists = 'svc.conf'\n", { flag: 'a' });
  }

  /** Starts the server if it is not running, then makes sure the `svc` database exists. */
  async start(): Promise<void> {
    const user = await this.runAsUser();
    const settings = [
      `port = ${this.opts.port}`,
      `listen_addresses = '127.0.0.1'`,
      `unix_socket_directories = ''`,
      `max_connections = 100`,
      `shared_buffers = 128MB`,
      `fsync = on`,
    ].join('\n');
    const confPath = join(this.opts.dir, 'svc.conf');
    writeFileSync(confPath, settings + '\n');
    privateFile(this.opts.logFile);
    if (user) {
      chownSync(confPath, user.uid, user.gid);
      chownSync(this.opts.logFile, user.uid, user.gid);
    }
    // Not `pg_ctl status`: a killed postmaster not reaped yet still answers signals.
    if (this.postmasterAlive()) return;
    // A lock file left by a dead (or zombie) postmaster would stop this start until something
    // reaps it. Safe to remove: PostgreSQL still refuses to start while any old server process
    // is attached to the shared memory.
    rmSync(join(this.opts.dir, 'postmaster.pid'), { force: true });
    this.opts.onProgress?.(`starting PostgreSQL on 127.0.0.1:${this.opts.port}`);
    await run(this.bin('pg_ctl'), ['-D', this.opts.dir, '-l', this.opts.logFile, '-w', '-t', '60', 'start'], {
      user: user ?? undefined,
      cwd: this.opts.dir,
      timeoutMs: 90_000,
    });
    await this.ensureDatabase();
  }

  async stop(): Promise<void> {
    if (!(await this.running())) return;
    const user = await this.runAsUser();
    await run(this.bin('pg_ctl'), ['-D', this.opts.dir, '-m', 'fast', '-w', '-t', '60', 'stop'], {
      user: user ?? undefined,
      cwd: this.opts.dir,
      timeoutMs: 90_000,
    });
  }

  async running(): Promise<boolean> {
    if (!this.initialised) return false;
    const user = await this.runAsUser();
    try {
      await run(this.bin('pg_ctl'), ['-D', this.opts.dir, 'status'], { user: user ?? undefined, cwd: this.opts.dir });
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Whether the postmaster named by postmaster.pid is alive, without spawning anything (the
   * watchdog asks every second). A zombie counts as dead: it answers signals until reaped.
   */
  postmasterAlive(): boolean {
    let pid: number;
    try {
      pid = Number(readFileSync(join(this.opts.dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    } catch {
      return false;
    }
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
    }
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
      return true;
    }
  }

  private async ensureDatabase(): Promise<void> {
    const admin = connect(this.url.replace(/\/svc$/, '/postgres'), { max: 1 });
    try {
      const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE}`;
      if (!exists) await admin.unsafe(`create database ${DATABASE}`);
    } finally {
      await admin.end();
    }
  }

  private bin(name: string): string {
    const dir = this.opts.binDir ?? findPostgresBinDir();
    return join(dir, name);
  }

  private userPromise: Promise<SystemUser | null> | undefined;
  private runAsUser(): Promise<SystemUser | null> {
    this.userPromise ??= resolveRunAsUser();
    return this.userPromise;
  }
}

/** Debian keeps server binaries per major version, outside PATH; take the newest. */
export function findPostgresBinDir(root = '/usr/lib/postgresql'): string {
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (!newest) {
    throw new Error(
      'PostgreSQL server binaries not found: run `svc init` (installs postgresql) or `apt-get install -y postgresql`',
    );
  }
  return join(root, newest, 'bin');
}

async function resolveRunAsUser(): Promise<SystemUser | null> {
  if (process.getuid?.() !== 0) return null;
  for (const name of POSTGRES_USERS) {
    const found = await lookupUser(name);
    if (found) return found;
  }
  const name = POSTGRES_USERS[1] as string;
  await run('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name]);
  const created = await lookupUser(name);
  if (!created) throw new Error(`could not create system user ${name} for PostgreSQL`);
  return created;
}

/** The appliance's own cluster, where config and secrets say (`svc init`, `up`, `down`, `status`). */
export function managedCluster(config: Config, secrets: Secrets, onProgress?: (line: string) => void): ManagedCluster {
  const paths = dataPaths(config.dataDir);
  return new ManagedCluster({
    dir: paths.postgres,
    port: config.ports.postgres,
    password: secrets.postgres_password,
    logFile: paths.postgresLog,
    binDir: config.postgresBinDir,
    onProgress,
  });
}
