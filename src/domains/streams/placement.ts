import type { Config } from '../../config/config.js';
import type { Tx } from '../../platform/db/connect.js';
import { nodeAlive } from '../ledger/nodes/service.js';
import { listNodes, lockNode } from '../ledger/nodes/queries.js';
import { fits, ladderBudget, load, loadOf, nodeCapacity, streamCost, type IngestRelay, type Profile } from './model.js';

/** Where a new stream is reserved: a node's id, null on a box that knows no nodes, or no room anywhere. */
export type Placement = { nodeId: string | null } | 'full';

/**
 * Reserves a new stream's capacity (docs/decisions.md, "Ingest nodes"): on the active, up node
 * whose ladders would fill the smallest share of its budget with it, so streams spread evenly over
 * unequal machines. The chosen node's row is locked and its load read again under the lock:
 * creations placing on one node wait for each other, creations on different nodes do not.
 * A box that knows no nodes (an API without ingest, in tests) checks its own capacity as before.
 */
export async function placeStream(
  tx: Tx,
  capacity: Config['capacity'],
  now: Date,
  stream: { profile: Profile; maxResolution: number; relay?: IngestRelay | null },
  /** This process's own node, known up here (its heartbeat may lag under load). */
  selfId: string | null = null,
): Promise<Placement> {
  const nodes = await listNodes(tx);
  const cost = streamCost(capacity, stream.profile, stream.maxResolution);
  if (!nodes.length)
    return fits(capacity, await load(tx, ['pending', 'live']), stream.profile, stream.maxResolution)
      ? { nodeId: null }
      : 'full';
  const open: { id: string; share: number }[] = [];
  for (const node of nodes) {
    if (node.status !== 'active' || !(node.id === selfId || nodeAlive(node, now))) continue;
    const nodeCap = nodeCapacity(capacity, node);
    const budget = ladderBudget(nodeCap);
    const used = loadOf(nodeCap, await load(tx, ['pending', 'live'], node.id));
    if (budget > 0 && used + cost <= budget + 1e-9) open.push({ id: node.id, share: (used + cost) / budget });
  }
  open.sort((a, b) => a.share - b.share || (a.id < b.id ? -1 : 1));
  for (const { id } of open) {
    const node = await lockNode(tx, id);
    if (!node || node.status !== 'active') continue;
    const nodeCap = nodeCapacity(capacity, node);
    if (
      fits(nodeCap, await load(tx, ['pending', 'live'], id), stream.profile, stream.maxResolution, stream.relay ?? null)
    )
      return { nodeId: id };
  }
  return 'full';
}
