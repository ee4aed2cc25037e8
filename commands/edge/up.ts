import { Flags } from '@oclif/core';
import { dataPaths } from '../../src/config/paths.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { CliError } from '../../src/cli/errors.js';
import { runEdgeForeground, startEdgeDetached } from '../../src/operator/edge-run.js';
import { describeEdgeStatus, edgeStatus, type EdgeStatus } from '../../src/operator/edge-status.js';
import { OperatorError } from '../../src/operator/errors.js';
import { runningPid } from '../../src/operator/pid.js';

export default class EdgeUp extends SvcCommand<typeof EdgeUp> {
  static override summary =
    'Start the edge (its nginx, the log shipper, the heartbeat); in the foreground unless --detach.';
  static override description =
    'The data dir must hold a joined edge (`svc edge join`). Logs go to <data dir>/logs/edge.log. ' +
    'The edge serves viewers from its cache while the origin is away and ships its log once the origin answers again.';
  static override examples = [
    '<%= config.bin %> edge up --detach',
    '<%= config.bin %> edge up --data-dir /srv/svc-edge',
  ];
  static override flags = {
    detach: Flags.boolean({ char: 'd', summary: 'Run in the background; return once its nginx answers.' }),
    verbose: Flags.boolean({ char: 'v', summary: 'Also print the logs on the console.' }),
    // Set by --detach for the process it starts, whose console is the log file.
    'detached-child': Flags.boolean({ hidden: true }),
  };

  async run(): Promise<EdgeStatus | { stopped_by: string }> {
    if (this.jsonEnabled() && !this.flags.detach)
      throw new CliError('invalid_usage', '--json needs --detach (the foreground edge prints no JSON document)', {}, 2);
    const child = this.flags['detached-child'];
    this.consoleIsLog = child;
    const progress = child ? () => {} : (line: string) => this.progress(line);
    const { config, secrets } = this.loadEdge();
    const pid = runningPid(dataPaths(config.dataDir).edgePidFile);
    if (pid !== null) {
      this.log(`the edge is already running (pid ${pid})`);
      return this.reportStatus();
    }
    if (this.flags.detach) {
      try {
        await startEdgeDetached({ config, args: this.flags.verbose ? ['--verbose'] : [], progress });
      } catch (err) {
        const tail = err instanceof OperatorError ? (err.details.log_tail as string[] | undefined) : undefined;
        if (tail?.length && !this.jsonEnabled()) for (const line of tail) process.stderr.write(`  | ${line}\n`);
        throw err;
      }
      return this.reportStatus();
    }
    return runEdgeForeground({
      config,
      secrets,
      verbose: this.flags.verbose,
      print: child ? () => {} : (line) => this.log(line),
      progress,
    });
  }

  private async reportStatus(): Promise<EdgeStatus> {
    const status = await edgeStatus(this.loadEdge().config);
    for (const line of describeEdgeStatus(status)) this.log(line);
    return status;
  }
}
