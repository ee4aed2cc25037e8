import { Args, Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openBilling } from '../../src/cli/database.js';
import type { Usage } from '../../src/domains/billing/schemas.js';
import { DEFAULT_USAGE_DAYS } from '../../src/domains/billing/schemas.js';

export default class AccountsUsage extends SvcCommand<typeof AccountsUsage> {
  static override summary = "Show an account's balance, available amount and usage per UTC day (what GET /v1/usage answers).";
  static override examples = ['<%= config.bin %> accounts usage acc_8f3k2m9q7x1c4v6b0n5z', '<%= config.bin %> accounts usage acc_8f3k2m9q7x1c4v6b0n5z --days 7 --json'];
  static override args = { id: Args.string({ description: 'Account id (acc_...).', required: true }) };
  static override flags = {
    days: Flags.integer({ description: `UTC days, today included (1-90, default ${DEFAULT_USAGE_DAYS}).`, min: 1, max: 90, default: DEFAULT_USAGE_DAYS }),
  };

  async run(): Promise<Usage> {
    const { accounts, billing, close } = await openBilling(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const usage = await billing.usage(await accounts.get(this.args.id), this.flags.days);
    const { days, rates, ...summary } = usage;
    this.printRecord({ ...summary, rates: Object.entries(rates).map(([k, v]) => `${k} ${v}`).join(', ') });
    this.printTable(
      days.filter((d) => d.total_usd !== '0.00' || d.credit_usd !== '0.00' || d.watch_minutes > 0),
      [
        { header: 'date', get: (d) => d.date },
        ...days[0]!.items.map((item, i) => ({ header: `${item.item}_usd`, get: (d: (typeof days)[number]) => d.items[i]!.amount_usd })),
        { header: 'total_usd', get: (d) => d.total_usd },
        { header: 'credit_usd', get: (d) => d.credit_usd },
        { header: 'balance_usd', get: (d) => d.balance_usd },
        { header: 'watch_minutes', get: (d) => String(d.watch_minutes) },
      ],
      'no usage in these days',
    );
    return usage;
  }
}
