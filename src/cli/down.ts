import { managedCluster } from '../platform/db/managed-cluster.js';
import { stopLeftoverNginx } from '../platform/nginx/nginx.js';
import type { Config } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { Secrets } from '../config/secrets.js';
import { isAlive, removePidFile, runningPid, waitForExit } from './pid.js';

export interface DownResult {
  was_running: boolean;
  pid: number | null;
  killed: boolean;
  /** A managed PostgreSQL left running by a crashed or killed appliance, now stopped. */
  stopped_leftover_postgres: boolean;
  /** An nginx left running by a killed appliance (it outlives one on purpose, see nginx.ts), now stopped. */
  stopped_leftover_nginx: boolean;
}

const signal = (pid: number, name: NodeJS.Signals) => {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
};

/** SIGTERM, up to `graceMs` to stop cleanly, then SIGKILL of its process group; then no PostgreSQL left behind. */
export async function stopAppliance(opts: {
  config: Config;
  secrets: Secrets;
  progress: (line: string) => void;
  graceMs?: number;
}): Promise<DownResult> {
  const { config } = opts;
  const pidFile = dataPaths(config.dataDir).pidFile;
  const pid = runningPid(pidFile);
  let killed = false;
  if (pid !== null) {
    opts.progress(`stopping svc (pid ${pid})`);
    signal(pid, 'SIGTERM');
    if (!(await waitForExit(pid, opts.graceMs ?? 60_000))) {
      opts.progress(`svc (pid ${pid}) did not stop in time: killing it`);
      // A detached appliance leads its own process group: its workers go with it.
      signal(-pid, 'SIGKILL');
      signal(pid, 'SIGKILL');
      await waitForExit(pid, 10_000);
      killed = true;
    }
  }
  const nginx = await stopLeftoverNginx(config.dataDir);
  let leftover = false;
  if (!config.databaseUrl) {
    const cluster = managedCluster(config, opts.secrets);
    if (await cluster.running()) {
      opts.progress('stopping PostgreSQL');
      await cluster.stop();
      leftover = true;
    }
  }
  if (pid === null || !isAlive(pid)) removePidFile(pidFile);
  return { was_running: pid !== null, pid, killed, stopped_leftover_postgres: leftover, stopped_leftover_nginx: nginx };
}
