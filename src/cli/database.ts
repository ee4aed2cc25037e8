import { AccountsService } from '../domains/ledger/accounts/service.js';
import { buildBilling } from '../appliance/build.js';
import type { BillingService } from '../domains/ledger/billing/service.js';
import { createLogger } from '../core/logger.js';
import { managedCluster } from '../platform/db/managed-cluster.js';
import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { systemClock } from '../core/clock.js';
import { connect, type Sql } from '../platform/db/connect.js';
import { CliError } from './errors.js';

/** The appliance database, for operator commands that act on it directly (accounts, keys). */
export async function openDatabase(config: Config, secrets: Secrets): Promise<Sql> {
  let url = config.databaseUrl;
  if (!url) {
    const cluster = managedCluster(config, secrets);
    if (!(await cluster.running())) {
      throw new CliError(
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
    throw new CliError(
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

/** Usage and balance as the API computes them, read by the operator. */
export async function openBilling(
  config: Config,
  secrets: Secrets,
): Promise<{ accounts: AccountsService; billing: BillingService; close: () => Promise<void> }> {
  const sql = await openDatabase(config, secrets);
  const billing = buildBilling({ sql, config, secrets, clock: systemClock, logger: createLogger('silent') });
  return { accounts: new AccountsService(sql, systemClock), billing, close: () => sql.end({ timeout: 5 }) };
}
