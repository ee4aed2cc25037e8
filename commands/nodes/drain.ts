import { Args } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openNodes } from '../../src/operator/nodes.js';

export default class NodesDrain extends SvcCommand<typeof NodesDrain> {
  static override summary =
    'Drain a node: no new reservations; its live streams finish (pending ones move to nodes with room).';
  static override examples = ['<%= config.bin %> nodes drain ingest-2'];
  static override args = { node: Args.string({ required: true, description: 'The node, by name or id.' }) };

  async run() {
    const { nodes, present, close } = await openNodes(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const node = await nodes.drain(this.args.node);
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
