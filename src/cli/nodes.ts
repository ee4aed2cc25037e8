import { Args } from '@oclif/core';
import type { NodeRow } from '../domains/ledger/nodes/queries.js';
import type { NodesService } from '../domains/ledger/nodes/service.js';
import { openNodes } from '../operator/nodes.js';
import { SvcCommand } from './base-command.js';

/**
 * `svc nodes drain` and `svc nodes activate`: one node's status set, then shown with the streams
 * on it; they differ only in the status they set.
 */
export abstract class NodeStatusCommand extends SvcCommand<typeof NodeStatusCommand> {
  static override args = { node: Args.string({ required: true, description: 'The node, by name or id.' }) };

  protected abstract setStatus(nodes: NodesService, idOrName: string): Promise<NodeRow>;

  async run() {
    const { nodes, present, close } = await openNodes(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const node = await this.setStatus(nodes, this.args.node);
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
