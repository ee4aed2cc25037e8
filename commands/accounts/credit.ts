import { Args, Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';
import { presentAccount, type PresentedAccount } from '../../src/cli/present.js';

export default class AccountsCredit extends SvcCommand<typeof AccountsCredit> {
  static override summary = 'Add credit (USD) to an account.';
  static override description =
    'The amount is a decimal string, kept exact (never a floating-point number). A negative amount (--add=-5) corrects a mistake; it may not leave a prepaid account below zero unless --force.';
  static override examples = [
    '<%= config.bin %> accounts credit acc_8f3k2m9q7x1c4v6b0n5z --add 25',
    '<%= config.bin %> accounts credit acc_8f3k2m9q7x1c4v6b0n5z --add 12.50 --json',
    '<%= config.bin %> accounts credit acc_8f3k2m9q7x1c4v6b0n5z --add=-5',
  ];
  static override args = { id: Args.string({ description: 'Account id (acc_...).', required: true }) };
  static override flags = {
    add: Flags.string({ summary: 'Amount of USD to add, such as 25 or 12.50.', required: true }),
    force: Flags.boolean({
      summary: 'Take off more than a prepaid account has, leaving it below zero.',
      default: false,
    }),
  };

  async run(): Promise<PresentedAccount> {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const account = presentAccount(await accounts.addCredit(this.args.id, this.flags.add, { force: this.flags.force }));
    this.printRecord(account);
    return account;
  }
}
