import { SvcCommand } from '../../src/cli/base-command.js';
import { systemClock } from '../../src/core/clock.js';
import { presentEdge, type PresentedEdge } from '../../src/domains/ledger/edges/present.js';
import type { Column } from '../../src/cli/table.js';
import { openEdges } from '../../src/operator/edges.js';

const COLUMNS: Column<PresentedEdge>[] = [
  { header: 'id', get: (e) => e.id },
  { header: 'name', get: (e) => e.name },
  { header: 'state', get: (e) => e.state },
  { header: 'address', get: (e) => e.address },
  { header: 'hit_ratio', get: (e) => e.cache_hit_ratio },
  { header: 'bytes_served', get: (e) => e.bytes_served },
  { header: 'log_lag_s', get: (e) => e.log_lag_seconds },
];

export default class EdgesList extends SvcCommand<typeof EdgesList> {
  static override summary =
    'List the edges and CDNs in front of this origin: up or down, cache hit ratio, bytes served, log lag.';
  static override examples = ['<%= config.bin %> edges list', '<%= config.bin %> edges list --json'];

  async run(): Promise<{ object: 'list'; data: PresentedEdge[] }> {
    const { edges, close } = await openEdges(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const now = systemClock.now();
    const data = (await edges.list()).map((e) => presentEdge(e, now));
    this.printTable(data, COLUMNS, 'no edges: add one with `svc edges add --name NAME`');
    return { object: 'list', data };
  }
}
