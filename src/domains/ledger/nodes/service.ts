import type { StorageSettings } from '../../../config/schema.js';
import type { Secrets } from '../../../config/secrets.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import { newId, newSecret, sha256 } from '../../../core/ids.js';
import type { Sql } from '../../../platform/db/connect.js';
import { credentialNodeId, nodeCredential } from './credentials.js';
import * as q from './queries.js';

/** A join token is good for one join within this long. */
export const JOIN_TOKEN_HOURS = 24;
/** A node heartbeats this often... */
export const HEARTBEAT_MS = 2000;
/** ...and is down when not heard from for this long: its streams' `node_ready` is false. */
export const NODE_DOWN_AFTER_MS = 10_000;

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

export interface NodesDeps {
  sql: Sql;
  clock: Clock;
  /** The key of node credentials (`nodeKey`). */
  key: string;
  /** What a joining node is given: the keys it signs and seals with, where the origin is. */
  join: {
    signingKey: string;
    dataKey: string;
    /** The database URL when the operator's PostgreSQL is external; null when the primary manages its own. */
    databaseUrl: string | null;
    /** Where a node writes live media (`/_ingest/`): the primary's own CDN port. */
    originUrl: string;
    /** The primary's object storage: a node ships its publish sessions where the recorder reads them. */
    storage: JoinStorage | null;
  };
  /** Tells the origin's nginx which nodes may write to it (one marker file per node). */
  allow?: (nodeIds: string[]) => void;
}

/** The primary's object storage as a joining node writes it: config.json's `storage`, secrets.json's key pair. */
export interface JoinStorage {
  settings: StorageSettings;
  keys: NonNullable<Secrets['storage']>;
}

/** What a node is given when it joins (docs/decisions.md, "Ingest nodes"). */
export interface NodeJoinAnswer {
  node_id: string;
  name: string;
  credential: string;
  signing_key: string;
  data_key: string;
  database_url: string | null;
  origin_url: string;
  /** Null: the primary keeps recordings in its data dir, and the node ships its sessions to the origin. */
  storage: JoinStorage | null;
}

export interface AddedNode {
  node: q.NodeRow;
  join_token: string;
}

/** Whether a node was heard from lately: it keeps and takes reservations. */
export const nodeAlive = (node: Pick<q.NodeRow, 'last_seen_at' | 'status'>, now: Date): boolean =>
  node.status !== 'removed' &&
  node.last_seen_at !== null &&
  now.getTime() - node.last_seen_at.getTime() < NODE_DOWN_AFTER_MS;

/** Whether a node takes publishers now (`node_ready`): alive, and its nginx up. */
export const nodeUp = (node: Pick<q.NodeRow, 'last_seen_at' | 'ingest_ready' | 'status'>, now: Date): boolean =>
  nodeAlive(node, now) && node.ingest_ready;

/**
 * The ingest nodes of the cluster (docs/decisions.md, "Ingest nodes"): added by the operator with a
 * one-use join token, joined, heard from every few seconds, drained and removed.
 */
export class NodesService {
  constructor(private readonly deps: NodesDeps) {}

  async add(name: string): Promise<AddedNode> {
    if (!NAME.test(name))
      throw new ApiError(
        'invalid_request',
        'name: 1-63 lowercase letters, digits and dashes, starting with a letter or digit.',
        { field: 'name' },
      );
    const { sql, clock } = this.deps;
    if (await q.nameTaken(sql, name))
      throw new ApiError('invalid_request', `name: a node named ${name} exists already.`, { field: 'name' });
    const id = newId('nod_');
    const now = clock.now();
    const token = newSecret('njt_');
    await q.insertNode(sql, {
      id,
      name,
      joinTokenHash: sha256(token),
      joinExpiresAt: new Date(now.getTime() + JOIN_TOKEN_HOURS * 3_600_000),
      now,
    });
    return { node: (await q.findNode(sql, id)) as q.NodeRow, join_token: token };
  }

  /** A node joins with its token; from now on it may write to the origin and take reservations. */
  async join(token: string): Promise<NodeJoinAnswer> {
    const { sql, clock, join } = this.deps;
    const id = await q.useJoinToken(sql, sha256(token), clock.now());
    if (!id)
      throw new ApiError(
        'invalid_join_token',
        'The join token is unknown, used, expired or its node removed: make a new one on the primary with `svc nodes add --name NAME`.',
      );
    await this.syncAllowed();
    const node = (await q.findNode(sql, id)) as q.NodeRow;
    return {
      node_id: id,
      name: node.name,
      credential: nodeCredential(this.deps.key, id),
      signing_key: join.signingKey,
      data_key: join.dataKey,
      database_url: join.databaseUrl,
      origin_url: join.originUrl,
      storage: join.storage,
    };
  }

  /** The node a credential names, if it is one and not removed. */
  async authenticate(credential: string | undefined): Promise<q.NodeRow | null> {
    const id = credential ? credentialNodeId(this.deps.key, credential) : null;
    const node = id ? await q.findNode(this.deps.sql, id) : null;
    return node && node.status !== 'removed' && node.joined_at ? node : null;
  }

  list(all = false): Promise<q.NodeRow[]> {
    return q.listNodes(this.deps.sql, all);
  }

  /** No new reservations; its live streams finish. Undone by `activate`. */
  drain(idOrName: string): Promise<q.NodeRow> {
    return this.setStatus(idOrName, 'draining');
  }

  activate(idOrName: string): Promise<q.NodeRow> {
    return this.setStatus(idOrName, 'active');
  }

  /** Gone for good: refused at the origin at once; its pending streams move to other nodes. */
  async remove(idOrName: string): Promise<q.NodeRow> {
    const removed = await this.setStatus(idOrName, 'removed');
    await this.syncAllowed();
    return removed;
  }

  /** Live streams running on a node now (a node carrying some is drained before it is removed). */
  async liveOn(idOrName: string): Promise<number> {
    const node = await q.findNode(this.deps.sql, idOrName);
    if (!node || node.status === 'removed') throw this.unknown(idOrName);
    return (await q.reservations(this.deps.sql)).find((r) => r.node_id === node.id)?.live ?? 0;
  }

  /** Keeps the origin's list of nodes that may write to it current (joined and not removed). */
  async syncAllowed(): Promise<void> {
    if (!this.deps.allow) return;
    const nodes = await q.listNodes(this.deps.sql);
    this.deps.allow(nodes.filter((n) => n.joined_at).map((n) => n.id));
  }

  private async setStatus(idOrName: string, status: q.NodeStatus): Promise<q.NodeRow> {
    const node = await q.setStatus(this.deps.sql, idOrName, status, this.deps.clock.now());
    if (!node) throw this.unknown(idOrName);
    return node;
  }

  private unknown(idOrName: string): ApiError {
    return new ApiError('not_found', `No node ${idOrName}: \`svc nodes list\` shows them.`);
  }
}
