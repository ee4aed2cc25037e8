import { NodeStatusCommand } from '../../src/cli/nodes.js';
import type { NodesService } from '../../src/domains/ledger/nodes/service.js';

export default class NodesActivate extends NodeStatusCommand {
  static override summary = 'Let a drained node take new reservations again.';
  static override examples = ['<%= config.bin %> nodes activate ingest-2'];

  protected setStatus(nodes: NodesService, idOrName: string) {
    return nodes.activate(idOrName);
  }
}
