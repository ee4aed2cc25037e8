import { Args, Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';

export default class ViewerKeysDelete extends SvcCommand<typeof ViewerKeysDelete> {
  static override summary =
    'Delete a viewer key: tokens it signed are refused within a few seconds; sessions already open go on (up to 24 hours).';
  static override examples = [
    '<%= config.bin %> viewer-keys delete vk_4d8s0a9f2k3m5n7b1v6c --account acc_8f3k2m9q7x1c4v6b0n5z',
  ];
  static override args = {
    id: Args.string({ description: 'Viewer key id (vk_...), as `svc viewer-keys list` shows it.', required: true }),
  };
  static override flags = { account: Flags.string({ summary: 'Account id (acc_...).', required: true }) };

  async run() {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    await accounts.deleteViewerKey(this.flags.account, this.args.id);
    this.log(`deleted ${this.args.id}`);
    return { id: this.args.id, object: 'viewer_key' as const, account_id: this.flags.account, deleted: true };
  }
}
