import type { Db } from '../../../platform/db/connect.js';

export type NodeStatus = 'active' | 'draining' | 'removed';

export interface NodeRow {
  id: string;
  name: string;
  status: NodeStatus;
  joined_at: Date | null;
  join_expires_at: Date | null;
  rtmp_url: string | null;
  whip_url: string | null;
  srt_host: string | null;
  cores: number | null;
  reserved_cores: number | null;
  measured_load: number | null;
  ingest_ready: boolean;
  last_seen_at: Date | null;
  created_at: Date;
  drained_at: Date | null;
  removed_at: Date | null;
}

/** What a node says of itself every few seconds. */
export interface Heartbeat {
  rtmp_url: string;
  whip_url: string;
  srt_host: string;
  cores: number;
  reserved_cores: number;
  measured_load: number;
  ingest_ready: boolean;
}

const COLUMNS = `id, name, status, joined_at, join_expires_at, rtmp_url, whip_url, srt_host,
  cores::float8 as cores, reserved_cores::float8 as reserved_cores, measured_load::float8 as measured_load,
  ingest_ready, last_seen_at, created_at, drained_at, removed_at`;

export async function insertNode(
  db: Db,
  row: { id: string; name: string; joinTokenHash: Buffer | null; joinExpiresAt: Date | null; now: Date },
): Promise<void> {
  await db`
    insert into nodes (id, name, join_token_hash, join_expires_at, joined_at, created_at)
    values (${row.id}, ${row.name}, ${row.joinTokenHash}, ${row.joinExpiresAt},
      ${row.joinTokenHash ? null : row.now}, ${row.now})`;
}

/** The primary's own row, made on its first start; its unplaced streams (from before nodes) become its own. */
export async function registerPrimary(db: Db, id: string, name: string, now: Date): Promise<void> {
  await db`
    insert into nodes (id, name, joined_at, created_at, last_seen_at) values (${id}, ${name}, ${now}, ${now}, ${now})
    on conflict (id) do update set last_seen_at = ${now}`;
  await db`update streams set node_id = ${id} where node_id is null and status in ('pending', 'live')`;
}

export async function nameTaken(db: Db, name: string): Promise<boolean> {
  return (await db`select 1 from nodes where name = ${name}`).length > 0;
}

/** Uses a join token: the node it was made for, now joined; null when unknown, used, expired or removed. */
export async function useJoinToken(db: Db, tokenHash: Buffer, now: Date): Promise<string | null> {
  const rows = await db<{ id: string }[]>`
    update nodes set join_token_hash = null, join_expires_at = null, joined_at = ${now}
    where join_token_hash = ${tokenHash} and join_expires_at > ${now} and status <> 'removed'
    returning id`;
  return rows[0]?.id ?? null;
}

/** Records a heartbeat; the node's status after it (null: no such node). */
export async function recordHeartbeat(db: Db, id: string, beat: Heartbeat, now: Date): Promise<NodeStatus | null> {
  const rows = await db<{ status: NodeStatus }[]>`
    update nodes set rtmp_url = ${beat.rtmp_url}, whip_url = ${beat.whip_url},
      srt_host = ${beat.srt_host}, cores = ${beat.cores}, reserved_cores = ${beat.reserved_cores},
      measured_load = ${beat.measured_load}, ingest_ready = ${beat.ingest_ready}, last_seen_at = ${now}
    where id = ${id} returning status`;
  return rows[0]?.status ?? null;
}

export async function findNode(db: Db, idOrName: string): Promise<NodeRow | null> {
  const rows = await db<NodeRow[]>`
    select ${db.unsafe(COLUMNS)} from nodes where id = ${idOrName} or name = ${idOrName}`;
  return rows[0] ?? null;
}

/** Every node not removed (`all`: removed ones too), oldest first. */
export async function listNodes(db: Db, all = false): Promise<NodeRow[]> {
  return db<NodeRow[]>`
    select ${db.unsafe(COLUMNS)} from nodes ${all ? db`` : db`where status <> 'removed'`} order by created_at, id`;
}

/** Locks a node's row: creations placing on it, and its admissions, wait for each other. */
export async function lockNode(db: Db, id: string): Promise<NodeRow | null> {
  const rows = await db<NodeRow[]>`select ${db.unsafe(COLUMNS)} from nodes where id = ${id} for update`;
  return rows[0] ?? null;
}

export async function setStatus(db: Db, idOrName: string, status: NodeStatus, now: Date): Promise<NodeRow | null> {
  const rows = await db<{ id: string }[]>`
    update nodes set status = ${status},
      drained_at = case when ${status} = 'draining' then ${now}::timestamptz else drained_at end,
      removed_at = case when ${status} = 'removed' then ${now}::timestamptz else removed_at end,
      join_token_hash = case when ${status} = 'removed' then null else join_token_hash end
    where (id = ${idOrName} or name = ${idOrName}) and status <> 'removed'
    returning id`;
  return rows[0] ? findNode(db, rows[0].id) : null;
}

/** Streams holding capacity on each node, by status. */
export async function reservations(db: Db): Promise<{ node_id: string; pending: number; live: number }[]> {
  return db`
    select node_id, count(*) filter (where status = 'pending')::int as pending,
      count(*) filter (where status = 'live')::int as live
    from streams where status in ('pending', 'live') and node_id is not null group by node_id`;
}
