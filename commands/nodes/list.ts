import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import type { Column } from '../../src/cli/table.js';
import type { PresentedNode } from '../../src/domains/streams/node-load.js';
import { openNodes } from '../../src/operator/nodes.js';

const COLUMNS: Column<PresentedNode>[] = [
  { header: 'id', get: (n) => n.id },
  { header: 'name', get: (n) => n.name },
  { header: 'status', get: (n) => n.status },
  { header: 'state', get: (n) => n.state },
  { header: 'rtmp_url', get: (n) => n.rtmp_url },
  { header: 'pending', get: (n) => n.pending },
  { header: 'live', get: (n) => n.live },
  { header: 'reserved', get: (n) => `${n.reserved_cores}/${n.budget_cores}` },
  { header: 'load', get: (n) => n.measured_load },
];

export default class NodesList extends SvcCommand<typeof NodesList> {
  static override summary =
    "List the cluster's ingest nodes: up or down, their streams, cores reserved of their budget, measured load.";
  static override examples = ['<%= config.bin %> nodes list', '<%= config.bin %> nodes list --all --json'];
  static override flags = { all: Flags.boolean({ summary: 'Removed nodes too.' }) };

  async run(): Promise<{ object: 'list'; data: PresentedNode[] }> {
    const { present, close } = await openNodes(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const data = await present(this.flags.all);
    this.printTable(data, COLUMNS, 'no nodes: `svc up` makes this machine the first');
    return { object: 'list', data };
  }
}
