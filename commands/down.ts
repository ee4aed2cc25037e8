import { SvcCommand } from '../src/cli/base-command.js';
import { stopAppliance, type DownResult } from '../src/operator/down.js';
import { describeError } from '../src/cli/errors.js';

export default class Down extends SvcCommand<typeof Down> {
  static override summary = 'Stop the running appliance (and its PostgreSQL).';
  static override description =
    'Sends SIGTERM and waits up to 60 s for a clean stop, then kills it. Whatever outlived it (nginx, a ladder, PostgreSQL) is stopped too. Works from the data dir alone: a damaged config.json cannot keep the appliance running.';
  static override examples = ['<%= config.bin %> down'];

  async run(): Promise<DownResult> {
    const result = await stopAppliance({
      dataDir: this.dataDir,
      postgresBinDir: this.postgresBinDir(),
      progress: (line) => this.progress(line),
    });
    if (result.was_running)
      this.log(
        result.killed
          ? `svc (pid ${result.pid}) was killed after not stopping in time`
          : `svc (pid ${result.pid}) stopped`,
      );
    else this.log('svc is not running');
    if (result.stopped_leftover_postgres) this.log('stopped a PostgreSQL left running');
    for (const p of result.stopped_leftover_processes)
      this.log(`stopped a process left running: ${p.command} (pid ${p.pid})`);
    return result;
  }

  /** The only setting down uses; without a readable config the newest installed PostgreSQL stops the cluster. */
  private postgresBinDir(): string | null {
    try {
      return this.loadConfig().postgresBinDir;
    } catch (err) {
      if (this.initialised)
        this.progress(
          `config.json cannot be used (${describeError(err).line}): stopping by the pid files under ${this.dataDir}`,
        );
      return null;
    }
  }
}
