import { SvcCommand } from '../../src/cli/base-command.js';
import { openAccounts } from '../../src/operator/database.js';
import { ACCOUNT_COLUMNS, presentAccount, type PresentedAccount } from '../../src/cli/present.js';

export default class AccountsList extends SvcCommand<typeof AccountsList> {
  static override summary = 'List accounts, newest first.';
  static override examples = ['<%= config.bin %> accounts list', '<%= config.bin %> accounts list --json'];

  async run(): Promise<{ object: 'list'; data: PresentedAccount[] }> {
    const { accounts, close } = await openAccounts(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const data = (await accounts.list()).map(presentAccount);
    this.printTable(data, ACCOUNT_COLUMNS, 'no accounts yet: create one with `svc accounts create --name NAME`');
    return { object: 'list', data };
  }
}
