import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';

export default class ViewerKeysCreate extends SvcCommand<typeof ViewerKeysCreate> {
  static override summary = 'Issue a viewer key (for signing viewer tokens); the secret is printed once.';
  static override examples = ['<%= config.bin %> viewer-keys create --account acc_8f3k2m9q7x1c4v6b0n5z --json'];
  static override flags = { account: Flags.string({ summary: 'Account id (acc_...).', required: true }) };

  async run() {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const created = await accounts.createViewerKey(this.flags.account);
    const key = {
      id: created.id,
      object: 'viewer_key' as const,
      account_id: created.account_id,
      secret: created.secret,
      created_at: created.created_at.toISOString(),
    };
    this.printRecord(key);
    this.warnSecret('viewer key secret');
    return key;
  }
}
