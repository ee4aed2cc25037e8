import { Args, Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';
import { presentAccount, type PresentedAccount } from '../../src/cli/present.js';

export default class AccountsTrust extends SvcCommand<typeof AccountsTrust> {
  static override summary = 'Mark an account trusted (higher limits), or no longer trusted with --revoke.';
  static override examples = [
    '<%= config.bin %> accounts trust acc_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> accounts trust acc_8f3k2m9q7x1c4v6b0n5z --revoke',
  ];
  static override args = { id: Args.string({ description: 'Account id (acc_...).', required: true }) };
  static override flags = {
    revoke: Flags.boolean({ summary: 'Take the trust away: back to the limits of new accounts.' }),
  };

  async run(): Promise<PresentedAccount> {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const account = presentAccount(await accounts.trust(this.args.id, !this.flags.revoke));
    this.printRecord(account);
    return account;
  }
}
