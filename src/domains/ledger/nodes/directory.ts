import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { Repeater } from '../../../core/repeater.js';
import type { Sql } from '../../../platform/db/connect.js';
import { listNodes, type NodeRow } from './queries.js';
import { nodeUp } from './service.js';

/** What a stream's presentation shows of its node. */
export interface NodeView {
  ready: boolean;
  rtmp_url: string | null;
  whip_url: string | null;
  srt_host: string | null;
}

const REFRESH_MS = 2000;

/**
 * The cluster's nodes as every API process shows them (`node_ready`, the ingest addresses of a
 * stream's node): read again every two seconds, so a read of a stream costs no query more. While
 * the database is away the last reading stands (and `node_ready` turns false with time).
 */
export class NodeDirectory {
  private nodes = new Map<string, NodeRow>();
  private readonly repeater = new Repeater(() => this.refresh(), REFRESH_MS);

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async refresh(): Promise<void> {
    try {
      this.nodes = new Map((await listNodes(this.sql, true)).map((n) => [n.id, n]));
    } catch (err) {
      this.logger.debug({ err }, 'reading the nodes failed; the last reading stands');
    }
  }

  async start(): Promise<void> {
    await this.refresh();
    this.repeater.start();
  }

  stop(): Promise<void> {
    return this.repeater.stop();
  }

  view(nodeId: string): NodeView | null {
    const node = this.nodes.get(nodeId);
    if (!node) return null;
    return {
      ready: nodeUp(node, this.clock.now()),
      rtmp_url: node.rtmp_url,
      whip_url: node.whip_url,
      srt_host: node.srt_host,
    };
  }
}
