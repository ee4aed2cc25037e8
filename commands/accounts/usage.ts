import { Args } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openBilling } from '../../src/operator/billing.js';
import { daysFlag, usageColumns, usageDays, usageSummary } from '../../src/cli/usage.js';
import type { Usage } from '../../src/domains/ledger/billing/schemas.js';

export default class AccountsUsage extends SvcCommand<typeof AccountsUsage> {
  static override summary =
    "Show an account's balance, available amount and usage per UTC day (what GET /v1/usage answers).";
  static override examples = [
    '<%= config.bin %> accounts usage acc_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> accounts usage acc_8f3k2m9q7x1c4v6b0n5z --days 7 --json',
  ];
  static override args = { id: Args.string({ description: 'Account id (acc_...).', required: true }) };
  static override flags = {
    days: daysFlag,
  };

  async run(): Promise<Usage> {
    const { accounts, billing, close } = await openBilling(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const usage = await billing.usage(await accounts.get(this.args.id), this.flags.days);
    this.printRecord(usageSummary(usage));
    this.printTable(usageDays(usage), usageColumns(usage), 'no usage in these days');
    return usage;
  }
}
