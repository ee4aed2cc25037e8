import { loadavg } from 'node:os';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { Repeater } from '../../../core/repeater.js';
import type { Sql } from '../../../platform/db/connect.js';
import { recordHeartbeat, type Heartbeat, type NodeStatus } from './queries.js';
import { HEARTBEAT_MS } from './service.js';

/**
 * This node telling the cluster it is alive, where publishers reach it and what it can carry
 * (docs/decisions.md, "Ingest nodes"). A beat that fails (the database is away) is simply missed:
 * the node shows down after a few, and comes back with the next that lands.
 */
export class NodeHeartbeat {
  private readonly repeater = new Repeater(() => this.beat(), HEARTBEAT_MS);
  /** What the cluster said of this node at the last beat that landed. */
  status: NodeStatus | null = null;

  constructor(
    private readonly deps: {
      sql: Sql;
      clock: Clock;
      logger: Logger;
      nodeId: string;
      /** The node's self-description now (its nginx may have gone down since the last beat). */
      describe: () => Omit<Heartbeat, 'measured_load'>;
    },
  ) {}

  async start(): Promise<void> {
    await this.beat();
    this.repeater.start();
  }

  stop(): Promise<void> {
    return this.repeater.stop();
  }

  async beat(): Promise<void> {
    const { sql, clock, logger, nodeId } = this.deps;
    try {
      // The machine's 1-minute load average, in cores: what its ladders (and the rest) really use.
      const status = await recordHeartbeat(
        sql,
        nodeId,
        { ...this.deps.describe(), measured_load: loadavg()[0] ?? 0 },
        clock.now(),
      );
      if (status !== this.status && status !== null) logger.info({ node_id: nodeId, status }, `this node is ${status}`);
      if (status === null)
        logger.warn({ node_id: nodeId }, 'this node is not in the cluster (removed, or never joined)');
      this.status = status;
    } catch (err) {
      logger.debug({ err }, 'heartbeat missed');
    }
  }
}
