import { existsSync, rmSync } from 'node:fs';
import { dataPaths } from '../config/paths.js';
import { ManagedCluster } from '../platform/db/managed-cluster.js';
import { orphanedWorkers } from '../platform/nginx/nginx.js';
import { commandLine, processGroupOf } from '../platform/process/proc.js';
import { leftoverProcesses, type LeftoverProcess } from './leftovers.js';
import { isAlive, readPidFile, removePidFile, runningPid, waitForExit } from './pid.js';

export interface DownResult {
  was_running: boolean;
  pid: number | null;
  killed: boolean;
  /** A managed PostgreSQL left running by a crashed or killed appliance, now stopped. */
  stopped_leftover_postgres: boolean;
  /** nginx or ladder processes of this data dir that outlived the appliance, now stopped. */
  stopped_leftover_processes: LeftoverProcess[];
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
};

/** A group leader is signalled with its group (nginx's workers, whatever a ladder forked). */
const signalWithGroup = (pid: number, name: NodeJS.Signals) => {
  if (processGroupOf(pid) === pid) signal(-pid, name);
  signal(pid, name);
};

/** SIGTERM, up to `graceMs` for a clean exit, then SIGKILL (with its group); true if it had to be killed. */
async function terminate(pid: number, graceMs: number): Promise<boolean> {
  signalWithGroup(pid, 'SIGTERM');
  if (await waitForExit(pid, graceMs)) return false;
  signalWithGroup(pid, 'SIGKILL');
  await waitForExit(pid, 10_000);
  return true;
}

/**
 * Stops everything the appliance of `dataDir` started, found from the data dir alone, so a
 * damaged or missing config.json cannot keep it running: the appliance by its pid file
 * (SIGTERM, up to `graceMs`, then SIGKILL of its process group), then whatever outlived it —
 * the nginx master by nginx's pid file, the managed PostgreSQL by its PGDATA, and any nginx or
 * ffmpeg whose command line names the data dir.
 */
export async function stopAppliance(opts: {
  dataDir: string;
  /** From config.json when it could be read; else the newest installed PostgreSQL. */
  postgresBinDir: string | null;
  progress: (line: string) => void;
  graceMs?: number;
}): Promise<DownResult> {
  const paths = dataPaths(opts.dataDir);
  const { pid, killed } = await stopByPidFile(paths.pidFile, 'svc', opts);
  const leftovers = await stopLeftoverNginx(opts.dataDir, opts.progress);

  let leftoverPostgres = false;
  // Only a cluster the appliance initialised lives here; an external database_url has none.
  if (existsSync(paths.postgres)) {
    const cluster = new ManagedCluster({
      dir: paths.postgres,
      port: 0,
      password: '',
      logFile: paths.postgresLog,
      binDir: opts.postgresBinDir,
    });
    if (await cluster.running()) {
      opts.progress('stopping PostgreSQL');
      await cluster.stop();
      leftoverPostgres = true;
    }
  }

  leftovers.push(...(await stopLeftovers(opts.dataDir, opts.progress)));
  if (pid === null || !isAlive(pid)) removePidFile(paths.pidFile);
  return {
    was_running: pid !== null,
    pid,
    killed,
    stopped_leftover_postgres: leftoverPostgres,
    stopped_leftover_processes: leftovers,
  };
}

export type EdgeDownResult = Omit<DownResult, 'stopped_leftover_postgres'>;

/** `svc edge down`: the edge by its pid file, then its nginx and anything else left under its data dir. */
export async function stopEdge(opts: {
  dataDir: string;
  progress: (line: string) => void;
  graceMs?: number;
}): Promise<EdgeDownResult> {
  const paths = dataPaths(opts.dataDir);
  const { pid, killed } = await stopByPidFile(paths.edgePidFile, 'the edge', opts);
  const leftovers = await stopLeftoverNginx(opts.dataDir, opts.progress);
  leftovers.push(...(await stopLeftovers(opts.dataDir, opts.progress)));
  if (pid === null || !isAlive(pid)) removePidFile(paths.edgePidFile);
  return { was_running: pid !== null, pid, killed, stopped_leftover_processes: leftovers };
}

/** The process a pid file names: SIGTERM, up to `graceMs` (default 60 s), then SIGKILL with its group. */
async function stopByPidFile(
  pidFile: string,
  name: string,
  opts: { progress: (line: string) => void; graceMs?: number },
): Promise<{ pid: number | null; killed: boolean }> {
  const pid = runningPid(pidFile);
  if (pid === null) return { pid, killed: false };
  opts.progress(`stopping ${name} (pid ${pid})`);
  const killed = await terminate(pid, opts.graceMs ?? 60_000);
  if (killed) opts.progress(`${name} (pid ${pid}) did not stop in time: killed it`);
  return { pid, killed };
}

/** The nginx master nginx's pid file names, and the workers of one that was killed. */
async function stopLeftoverNginx(dataDir: string, progress: (line: string) => void): Promise<LeftoverProcess[]> {
  const paths = dataPaths(dataDir);
  const leftovers: LeftoverProcess[] = [];
  const nginx = readPidFile(paths.nginxPid);
  if (nginx !== null && isAlive(nginx) && (commandLine(nginx)?.join(' ') ?? '').startsWith('nginx')) {
    progress(`stopping an nginx left running (pid ${nginx})`);
    leftovers.push({ pid: nginx, command: commandLine(nginx)?.join(' ') ?? '' });
    await terminate(nginx, 5000);
  }
  // nginx's workers outlive a master killed with SIGKILL, holding its ports; their titles name no data dir.
  const orphans = nginx === null ? [] : orphanedWorkers(nginx);
  if (orphans.length) {
    progress(`stopping ${orphans.length} worker(s) of an nginx master that was killed: ${orphans.join(', ')}`);
    leftovers.push(...orphans.map((p) => ({ pid: p, command: commandLine(p)?.join(' ') ?? '' })));
    await Promise.all(orphans.map((p) => terminate(p, 5000)));
  }
  if (nginx !== null) rmSync(paths.nginxPid, { force: true });
  return leftovers;
}

/** Any process of ours whose command line names the data dir (leftoverProcesses). */
async function stopLeftovers(dataDir: string, progress: (line: string) => void): Promise<LeftoverProcess[]> {
  const rest = leftoverProcesses(dataDir);
  if (rest.length) {
    progress(`stopping ${rest.length} process(es) left running: ${rest.map((p) => p.pid).join(', ')}`);
    await Promise.all(rest.map((p) => terminate(p.pid, 5000)));
  }
  return rest;
}
