import { Args } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';
import { presentAccount, type PresentedAccount } from '../../src/cli/present.js';

export default class AccountsGet extends SvcCommand<typeof AccountsGet> {
  static override summary = 'Show one account.';
  static override examples = ['<%= config.bin %> accounts get acc_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: Args.string({ description: 'Account id (acc_...).', required: true }) };

  async run(): Promise<PresentedAccount> {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const account = presentAccount(await accounts.get(this.args.id));
    this.printRecord(account);
    return account;
  }
}
