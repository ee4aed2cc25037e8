import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { systemClock } from '../core/clock.js';
import { AccountsService } from '../domains/ledger/accounts/service.js';
import type { BillingService } from '../domains/ledger/billing/service.js';
import { buildBilling } from '../composition/billing.js';
import { openDatabase } from './database.js';

/** Usage and balance as the API computes them, read by the operator. */
export async function openBilling(
  config: Config,
  secrets: Secrets,
): Promise<{ accounts: AccountsService; billing: BillingService; close: () => Promise<void> }> {
  const sql = await openDatabase(config, secrets);
  const billing = buildBilling({ sql, config, clock: systemClock });
  return { accounts: new AccountsService(sql, systemClock), billing, close: () => sql.end({ timeout: 5 }) };
}
