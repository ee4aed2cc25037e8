import { SvcCommand } from '../src/cli/base-command.js';
import { applianceStatus, describeStatus, type ApplianceStatus } from '../src/cli/status.js';

export default class Status extends SvcCommand<typeof Status> {
  static override summary = 'Show whether the appliance runs, the health of its parts and its URLs.';
  static override description = 'Exits 0 whether or not the appliance runs; `running` and each part\'s `healthy` say which.';
  static override examples = ['<%= config.bin %> status', '<%= config.bin %> status --json'];

  async run(): Promise<ApplianceStatus> {
    const status = await applianceStatus(this.loadConfig(), this.loadSecrets());
    for (const line of describeStatus(status)) this.log(line);
    return status;
  }
}
