import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';

export default class ApiKeysList extends SvcCommand<typeof ApiKeysList> {
  static override summary = 'List the API keys of an account (last four characters only), newest first.';
  static override examples = ['<%= config.bin %> api-keys list --account acc_8f3k2m9q7x1c4v6b0n5z'];
  static override flags = { account: Flags.string({ summary: 'Account id (acc_...).', required: true }) };

  async run() {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const data = (await accounts.listApiKeys(this.flags.account)).map((k) => ({
      id: k.id,
      object: 'api_key' as const,
      account_id: k.account_id,
      last4: k.last4,
      created_at: k.created_at.toISOString(),
      revoked_at: k.revoked_at?.toISOString() ?? null,
    }));
    this.printTable(
      data,
      [
        { header: 'id', get: (k) => k.id },
        { header: 'key', get: (k) => `svc_live_...${k.last4}` },
        { header: 'created_at', get: (k) => k.created_at },
        { header: 'revoked_at', get: (k) => k.revoked_at },
      ],
      'no API keys: create one with `svc api-keys create --account ID`',
    );
    return { object: 'list' as const, data };
  }
}
