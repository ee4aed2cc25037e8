import type { Db } from '../../../platform/db/connect.js';
import type { ServedCounts } from '../cdnlog/aggregate.js';

export type EdgeKind = 'edge' | 'cdn';

export interface EdgeRow {
  id: string;
  name: string;
  kind: EdgeKind;
  joined_at: Date | null;
  join_expires_at: Date | null;
  address: string | null;
  last_seen_at: Date | null;
  nginx_up: boolean | null;
  requests: number;
  cache_hits: number;
  cache_misses: number;
  bytes_served: number;
  created_at: Date;
  removed_at: Date | null;
  /** Its log's position: read up to (null for a CDN, whose logs are imported). */
  counted_until: Date | null;
  /** When its log's position last moved. */
  log_updated_at: Date | null;
}

/** An edge with its log's position (fixed text: `unsafe` only makes it a fragment). */
const SELECT_EDGES = `select
  e.id, e.name, e.kind, e.joined_at, e.join_expires_at, e.address, e.last_seen_at, e.nginx_up,
  e.requests, e.cache_hits, e.cache_misses, e.bytes_served, e.created_at, e.removed_at,
  p.counted_until, p.updated_at as log_updated_at
  from edges e left join cdn_log_position p on p.source = e.id`;

export async function insertEdge(
  db: Db,
  row: {
    id: string;
    name: string;
    kind: EdgeKind;
    joinTokenHash: Buffer | null;
    joinExpiresAt: Date | null;
    now: Date;
  },
): Promise<void> {
  await db`
    insert into edges (id, name, kind, join_token_hash, join_expires_at, joined_at, created_at)
    values (${row.id}, ${row.name}, ${row.kind}, ${row.joinTokenHash}, ${row.joinExpiresAt},
      ${row.kind === 'cdn' ? row.now : null}, ${row.now})`;
}

export async function nameTaken(db: Db, name: string): Promise<boolean> {
  const rows = await db`select 1 from edges where name = ${name}`;
  return rows.length > 0;
}

/** Uses a join token: the edge it was made for, now joined; null when unknown, used, expired or removed. */
export async function useJoinToken(
  db: Db,
  tokenHash: Buffer,
  address: string | null,
  now: Date,
): Promise<string | null> {
  const [row] = await db<{ id: string }[]>`
    update edges set join_token_hash = null, joined_at = ${now}, address = ${address}, last_seen_at = ${now}
    where join_token_hash = ${tokenHash} and join_expires_at > ${now} and removed_at is null and kind = 'edge'
    returning id`;
  return row?.id ?? null;
}

export async function findEdge(db: Db, id: string): Promise<EdgeRow | null> {
  const [row] = await db<EdgeRow[]>`
    ${db.unsafe(SELECT_EDGES)} where e.id = ${id}`;
  return row ?? null;
}

/** Every edge not removed, by name. */
export async function listEdges(db: Db): Promise<EdgeRow[]> {
  return db<EdgeRow[]>`
    ${db.unsafe(SELECT_EDGES)} where e.removed_at is null order by e.name`;
}

/** The ids of the edges and CDNs the origin lets fetch (joined, not removed). */
export async function activeEdgeIds(db: Db): Promise<string[]> {
  const rows = await db<{ id: string }[]>`select id from edges where removed_at is null and joined_at is not null`;
  return rows.map((r) => r.id);
}

/** Removes an edge; the id when it was there. */
export async function markRemoved(db: Db, idOrName: string, now: Date): Promise<string | null> {
  const [row] = await db<{ id: string }[]>`
    update edges set removed_at = ${now}, join_token_hash = null
    where (id = ${idOrName} or name = ${idOrName}) and removed_at is null returning id`;
  return row?.id ?? null;
}

export async function recordHeartbeat(
  db: Db,
  id: string,
  beat: { address: string | null; nginxUp: boolean },
  now: Date,
): Promise<void> {
  await db`update edges set last_seen_at = ${now}, address = coalesce(${beat.address}, address), nginx_up = ${beat.nginxUp} where id = ${id}`;
}

/** What a batch of the edge's log says it served (in the batch's transaction: counted once). */
export async function addServed(db: Db, id: string, served: ServedCounts): Promise<void> {
  await db`
    update edges set requests = requests + ${served.requests}, cache_hits = cache_hits + ${served.hits},
      cache_misses = cache_misses + ${served.misses}, bytes_served = bytes_served + ${served.bytes}
    where id = ${id}`;
}
