import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';

export default class ViewerKeysList extends SvcCommand<typeof ViewerKeysList> {
  static override summary =
    'List the viewer keys of an account (ids only: a secret is shown once, at creation), oldest first.';
  static override examples = ['<%= config.bin %> viewer-keys list --account acc_8f3k2m9q7x1c4v6b0n5z --json'];
  static override flags = { account: Flags.string({ summary: 'Account id (acc_...).', required: true }) };

  async run() {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const data = (await accounts.listViewerKeys(this.flags.account)).map((k) => ({
      id: k.id,
      object: 'viewer_key' as const,
      account_id: k.account_id,
      created_at: k.created_at.toISOString(),
    }));
    this.printTable(
      data,
      [
        { header: 'id', get: (k) => k.id },
        { header: 'created_at', get: (k) => k.created_at },
      ],
      'no viewer keys: create one with `svc viewer-keys create --account ID`',
    );
    return { object: 'list' as const, data };
  }
}
