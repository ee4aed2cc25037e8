import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';

export default class ApiKeysCreate extends SvcCommand<typeof ApiKeysCreate> {
  static override summary = 'Issue an API key for an account; the key is printed once.';
  static override examples = [
    '<%= config.bin %> api-keys create --account acc_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> api-keys create --account acc_8f3k2m9q7x1c4v6b0n5z --json',
  ];
  static override flags = { account: Flags.string({ summary: 'Account id (acc_...).', required: true }) };

  async run() {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const created = await accounts.createApiKey(this.flags.account);
    const key = {
      id: created.id,
      object: 'api_key' as const,
      account_id: created.account_id,
      key: created.key,
      created_at: created.created_at.toISOString(),
    };
    this.printRecord(key);
    this.warnSecret('API key');
    return key;
  }
}
