import { apiFlags } from '../src/cli/api-client.js';
import { SvcCommand } from '../src/cli/base-command.js';
import { daysFlag, usageColumns, usageDays, usageSummary } from '../src/cli/usage.js';
import type { Usage } from '../src/domains/ledger/billing/schemas.js';

export default class UsageCommand extends SvcCommand<typeof UsageCommand> {
  static override summary =
    "Show the API key's account: balance, available amount, rates and usage per UTC day (GET /v1/usage).";
  static override description =
    'What a customer sees with their own API key; the operator reads any account with `svc accounts usage ID`.';
  static override examples = ['<%= config.bin %> usage', '<%= config.bin %> usage --days 7 --json'];
  static override flags = { ...apiFlags, days: daysFlag };

  async run(): Promise<Usage> {
    const usage = await this.apiClient(this.flags).request<Usage>('GET', 'v1/usage', {
      query: { days: this.flags.days },
    });
    this.printRecord(usageSummary(usage));
    this.printTable(usageDays(usage), usageColumns(usage), 'no usage in these days');
    return usage;
  }
}
