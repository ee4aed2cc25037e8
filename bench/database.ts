import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Sql } from '../src/platform/db/connect.js';
import { ManagedCluster } from '../src/platform/db/managed-cluster.js';
import { openForTraversal } from '../src/platform/system/users.js';
import { migrate } from '../src/platform/db/migrate.js';
import { freePort } from '../test/helpers/ports.js';

/** A throwaway managed PostgreSQL cluster with the schema applied, for one benchmark process. */
export async function startBenchDatabase(): Promise<{ dir: string; url: string; sql: Sql; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  openForTraversal(dir);
  const cluster = new ManagedCluster({
    dir: join(dir, 'pg'),
    port: await freePort(),
    password: 'bench',
    logFile: join(dir, 'postgres.log'),
  });
  await cluster.init();
  await cluster.start();
  const sql = connect(cluster.url, { max: 20 });
  await migrate(sql);
  return {
    dir,
    url: cluster.url,
    sql,
    async stop() {
      await sql.end({ timeout: 5 });
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
