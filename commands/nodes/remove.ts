import { Args, Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { OperatorError } from '../../src/operator/errors.js';
import { openNodes } from '../../src/operator/nodes.js';

export default class NodesRemove extends SvcCommand<typeof NodesRemove> {
  static override summary =
    'Remove a node: it may no longer write to the origin; its pending streams move to other nodes.';
  static override description =
    'A node still running live streams is refused: drain it first (`svc nodes drain`) and wait until they end, or give --force ' +
    '(their publishers then reconnect to another node within the 60-second window and the broadcasts go on).';
  static override examples = [
    '<%= config.bin %> nodes remove ingest-2',
    '<%= config.bin %> nodes remove ingest-2 --force',
  ];
  static override args = { node: Args.string({ required: true, description: 'The node, by name or id.' }) };
  static override flags = { force: Flags.boolean({ summary: 'Even with live streams on it.' }) };

  async run() {
    const { nodes, close } = await openNodes(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const live = await nodes.liveOn(this.args.node);
    if (live > 0 && !this.flags.force)
      throw new OperatorError(
        'node_busy',
        `${live} live streams run on ${this.args.node}: drain it (\`svc nodes drain ${this.args.node}\`) and wait until they end, or remove it with --force.`,
        { live },
      );
    const node = await nodes.remove(this.args.node);
    this.printRecord({ id: node.id, name: node.name, status: node.status });
    return { id: node.id, object: 'node' as const, name: node.name, status: node.status };
  }
}
