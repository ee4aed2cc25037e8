import { SvcCommand } from '../src/cli/base-command.js';
import { stopAppliance, type DownResult } from '../src/cli/down.js';

export default class Down extends SvcCommand<typeof Down> {
  static override summary = 'Stop the running appliance (and its PostgreSQL).';
  static override description = 'Sends SIGTERM and waits up to 60 s for a clean stop, then kills it. A PostgreSQL or nginx left running by a crash is stopped too.';
  static override examples = ['<%= config.bin %> down'];

  async run(): Promise<DownResult> {
    const result = await stopAppliance({ config: this.loadConfig(), secrets: this.loadSecrets(), progress: (line) => this.progress(line) });
    if (result.was_running) this.log(result.killed ? `svc (pid ${result.pid}) was killed after not stopping in time` : `svc (pid ${result.pid}) stopped`);
    else this.log('svc is not running');
    if (result.stopped_leftover_postgres) this.log('stopped a PostgreSQL left running');
    if (result.stopped_leftover_nginx) this.log('stopped an nginx left running');
    return result;
  }
}
