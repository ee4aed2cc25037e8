import { SvcCommand } from '../../src/cli/base-command.js';
import { describeEdgeStatus, edgeStatus, type EdgeStatus } from '../../src/operator/edge-status.js';

export default class EdgeStatusCommand extends SvcCommand<typeof EdgeStatusCommand> {
  static override summary =
    "Show whether the edge runs, its nginx, the origin's reachability, log lag and what it served.";
  static override description =
    'Exits 0 when the edge runs, its nginx answers and the origin answered its last heartbeat; 1 when one of those is down; 3 when it is not running. ' +
    'Served counts (requests, bytes, cache hits and misses) are since the edge started, as the origin counted them from its log.';
  static override examples = ['<%= config.bin %> edge status', '<%= config.bin %> edge status --json'];

  async run(): Promise<EdgeStatus> {
    const status = await edgeStatus(this.loadEdge().config);
    for (const line of describeEdgeStatus(status)) this.log(line);
    // Like `svc status` and `systemctl status`: 3 for "not running".
    process.exitCode = status.healthy ? 0 : status.running ? 1 : 3;
    return status;
  }
}
