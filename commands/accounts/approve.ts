import { Args } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';
import { presentAccount, type PresentedAccount } from '../../src/cli/present.js';

export default class AccountsApprove extends SvcCommand<typeof AccountsApprove> {
  static override summary = 'Approve a pending account: it can use the API.';
  static override examples = ['<%= config.bin %> accounts approve acc_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: Args.string({ description: 'Account id (acc_...).', required: true }) };

  async run(): Promise<PresentedAccount> {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const account = presentAccount(await accounts.approve(this.args.id));
    this.printRecord(account);
    return account;
  }
}
