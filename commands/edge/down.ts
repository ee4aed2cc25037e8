import { SvcCommand } from '../../src/cli/base-command.js';
import { stopEdge, type EdgeDownResult } from '../../src/operator/down.js';

export default class EdgeDown extends SvcCommand<typeof EdgeDown> {
  static override summary = 'Stop the running edge and its nginx.';
  static override description =
    'Sends SIGTERM and waits up to 60 s, then kills it; an nginx left running is stopped too. Works from the data dir alone. ' +
    'What the edge logged and did not ship yet stays in its log and is shipped at its next start.';
  static override examples = ['<%= config.bin %> edge down'];

  async run(): Promise<EdgeDownResult> {
    const result = await stopEdge({ dataDir: this.edgeDataDir, progress: (line) => this.progress(line) });
    if (result.was_running)
      this.log(
        result.killed
          ? `the edge (pid ${result.pid}) was killed after not stopping in time`
          : `the edge (pid ${result.pid}) stopped`,
      );
    else this.log('the edge is not running');
    for (const p of result.stopped_leftover_processes)
      this.log(`stopped a process left running: ${p.command} (pid ${p.pid})`);
    return result;
  }
}
