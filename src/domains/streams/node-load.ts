import type { Config } from '../../config/config.js';
import type { Db } from '../../platform/db/connect.js';
import { listNodes, reservations, type NodeRow } from '../ledger/nodes/queries.js';
import { nodeUp } from '../ledger/nodes/service.js';
import { ladderBudget, load, loadOf, nodeCapacity } from './model.js';

/** A node as the operator sees it (`svc nodes list --json`, `svc status`, metrics, the dashboard): stable field names. */
export interface PresentedNode {
  id: string;
  object: 'node';
  name: string;
  /** `active`, `draining` (no new reservations) or `removed`. */
  status: NodeRow['status'];
  /** `joining` (a token is out), `up` (takes publishers), `down` (not heard from, or its nginx is down), `removed`. */
  state: 'joining' | 'up' | 'down' | 'removed';
  rtmp_url: string | null;
  whip_url: string | null;
  srt_host: string | null;
  cores: number | null;
  /** Cores its ladders may use (cores less those kept for the rest). */
  budget_cores: number;
  /** Cores reserved by its pending and live streams, at the configured stream costs. */
  reserved_cores: number;
  pending: number;
  live: number;
  /** Its 1-minute load average, in cores, at its last heartbeat. */
  measured_load: number | null;
  last_seen_at: string | null;
  created_at: string;
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Every node with what is reserved on it now (`all`: removed ones too). */
export async function presentNodes(
  db: Db,
  capacity: Config['capacity'],
  now: Date,
  all = false,
): Promise<PresentedNode[]> {
  const nodes = await listNodes(db, all);
  const counts = await reservations(db);
  const presented: PresentedNode[] = [];
  for (const node of nodes) {
    const cap = nodeCapacity(capacity, node);
    const count = counts.find((c) => c.node_id === node.id);
    presented.push({
      id: node.id,
      object: 'node',
      name: node.name,
      status: node.status,
      state: node.status === 'removed' ? 'removed' : !node.joined_at ? 'joining' : nodeUp(node, now) ? 'up' : 'down',
      rtmp_url: node.rtmp_url,
      whip_url: node.whip_url,
      srt_host: node.srt_host,
      cores: node.cores,
      budget_cores: round(ladderBudget(cap)),
      reserved_cores: round(loadOf(cap, await load(db, ['pending', 'live'], node.id))),
      pending: count?.pending ?? 0,
      live: count?.live ?? 0,
      measured_load: node.measured_load === null ? null : round(node.measured_load),
      last_seen_at: node.last_seen_at?.toISOString() ?? null,
      created_at: node.created_at.toISOString(),
    });
  }
  return presented;
}
