import { SvcCommand } from '../src/cli/base-command.js';
import { applianceStatus, describeStatus, type ApplianceStatus } from '../src/operator/status.js';

export default class Status extends SvcCommand<typeof Status> {
  static override summary = 'Show whether the appliance runs, the health of its parts and its URLs.';
  static override description =
    "Exits 0 when the appliance runs and is healthy; 1 when a part is down or a job is late (its last success older than twice its period); 3 when it is not running. `healthy`, each part's `healthy` and each job's `late` say which.";
  static override examples = ['<%= config.bin %> status', '<%= config.bin %> status --json'];

  async run(): Promise<ApplianceStatus> {
    const status = await applianceStatus(this.loadConfig(), this.loadSecrets());
    for (const line of describeStatus(status)) this.log(line);
    // Like `systemctl status`: 3 for "not running".
    process.exitCode = status.healthy ? 0 : status.running ? 1 : 3;
    return status;
  }
}
