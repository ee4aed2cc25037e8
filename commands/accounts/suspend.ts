import { Args } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';
import { presentAccount, type PresentedAccount } from '../../src/cli/present.js';

export default class AccountsSuspend extends SvcCommand<typeof AccountsSuspend> {
  static override summary = 'Suspend an account: its API calls are refused until it is approved again.';
  static override examples = ['<%= config.bin %> accounts suspend acc_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: Args.string({ description: 'Account id (acc_...).', required: true }) };

  async run(): Promise<PresentedAccount> {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const account = presentAccount(await accounts.suspend(this.args.id));
    this.printRecord(account);
    return account;
  }
}
