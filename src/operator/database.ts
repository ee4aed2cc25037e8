import { AccountsService } from '../domains/ledger/accounts/service.js';
import { managedCluster } from '../platform/db/managed-cluster.js';
import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { systemClock } from '../core/clock.js';
import { connect, type Sql } from '../platform/db/connect.js';
import { OperatorError } from './errors.js';

/** The appliance database, for operator commands that act on it directly (accounts, keys). */
export async function openDatabase(config: Config, secrets: Secrets): Promise<Sql> {
  let url = config.databaseUrl;
  if (!url) {
    const cluster = managedCluster(config, secrets);
    if (!(await cluster.running())) {
      throw new OperatorError(
        'database_not_running',
        `the appliance database is not running: start it with \`svc up --detach --data-dir ${config.dataDir}\``,
      );
    }
    url = cluster.url;
  }
  const sql = connect(url, { max: 2 });
  try {
    await sql`select 1`;
  } catch (err) {
    await sql.end({ timeout: 0 });
    const reason = (err as { code?: string }).code ?? (err as Error).message;
    throw new OperatorError(
      'database_unreachable',
      `cannot reach the database (${reason}): check it with \`svc status\`${config.databaseUrl ? ' and database_url in config.json' : ''}`,
    );
  }
  return sql;
}

export async function openAccounts(
  config: Config,
  secrets: Secrets,
): Promise<{ accounts: AccountsService; close: () => Promise<void> }> {
  const sql = await openDatabase(config, secrets);
  return { accounts: new AccountsService(sql, systemClock), close: () => sql.end({ timeout: 5 }) };
}
