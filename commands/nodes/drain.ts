import { NodeStatusCommand } from '../../src/cli/nodes.js';
import type { NodesService } from '../../src/domains/ledger/nodes/service.js';

export default class NodesDrain extends NodeStatusCommand {
  static override summary =
    'Drain a node: no new reservations; its live streams finish (pending ones move to nodes with room).';
  static override examples = ['<%= config.bin %> nodes drain ingest-2'];

  protected setStatus(nodes: NodesService, idOrName: string) {
    return nodes.drain(idOrName);
  }
}
