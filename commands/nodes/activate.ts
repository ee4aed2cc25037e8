import { Args } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openNodes } from '../../src/operator/nodes.js';

export default class NodesActivate extends SvcCommand<typeof NodesActivate> {
  static override summary = 'Let a drained node take new reservations again.';
  static override examples = ['<%= config.bin %> nodes activate ingest-2'];
  static override args = { node: Args.string({ required: true, description: 'The node, by name or id.' }) };

  async run() {
    const { nodes, present, close } = await openNodes(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const node = await nodes.activate(this.args.node);
    const shown = (await present()).find((n) => n.id === node.id);
    this.printRecord({
      id: node.id,
      name: node.name,
      status: node.status,
      live: shown?.live ?? 0,
      pending: shown?.pending ?? 0,
    });
    return shown ?? { id: node.id, object: 'node', name: node.name, status: node.status };
  }
}
