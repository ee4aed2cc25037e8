import { Args, Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';

export default class ApiKeysRevoke extends SvcCommand<typeof ApiKeysRevoke> {
  static override summary = 'Revoke an API key: requests with it fail from now on.';
  static override examples = [
    '<%= config.bin %> api-keys revoke key_4d8s0a9f2k3m5n7b1v6c --account acc_8f3k2m9q7x1c4v6b0n5z',
  ];
  static override args = {
    id: Args.string({ description: 'API key id (key_...), as `svc api-keys list` shows it.', required: true }),
  };
  static override flags = { account: Flags.string({ summary: 'Account id (acc_...).', required: true }) };

  async run() {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    await accounts.revokeApiKey(this.flags.account, this.args.id);
    this.log(`revoked ${this.args.id}`);
    return { id: this.args.id, object: 'api_key' as const, account_id: this.flags.account, revoked: true };
  }
}
