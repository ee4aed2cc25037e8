import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';
import { presentAccount, type PresentedAccount } from '../../src/cli/present.js';

export default class AccountsCreate extends SvcCommand<typeof AccountsCreate> {
  static override summary = 'Create a customer account.';
  static override description =
    'Active unless --pending (then it waits for `svc accounts approve`). Prints the account, id first.';
  static override examples = [
    '<%= config.bin %> accounts create --name "Acme" --credit 50',
    '<%= config.bin %> accounts create --name "Big customer" --trusted --postpaid --json',
  ];
  static override flags = {
    name: Flags.string({ summary: 'Account name (1-200 characters).', required: true }),
    trusted: Flags.boolean({ summary: 'Trusted: the higher limits.' }),
    pending: Flags.boolean({ summary: 'Awaiting approval: cannot use the API until approved.' }),
    credit: Flags.string({ summary: 'Starting credit in USD, a decimal such as 50 or 12.50.' }),
    postpaid: Flags.boolean({ summary: 'Billed afterwards: never refused for credit.' }),
  };

  async run(): Promise<PresentedAccount> {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const account = presentAccount(
      await accounts.create({
        name: this.flags.name,
        trusted: this.flags.trusted,
        pending: this.flags.pending,
        creditUsd: this.flags.credit,
        postpaid: this.flags.postpaid,
      }),
    );
    this.printRecord(account);
    return account;
  }
}
