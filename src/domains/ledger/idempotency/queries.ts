import type { Db } from '../../../platform/db/connect.js';

export interface IdempotencyRow {
  account_id: string;
  key: string;
  request_hash: Buffer;
  response_status: number;
  response_sealed: Buffer;
  created_at: Date;
}

/**
 * Serialises requests that share a key, for the rest of the transaction. Account ids have no
 * spaces, so a space separates them unambiguously (text parameters cannot carry U+0000).
 */
export async function lockKey(db: Db, accountId: string, key: string): Promise<void> {
  await db`select pg_advisory_xact_lock(hashtextextended(${`${accountId} ${key}`}, 0))`;
}

export async function findRecord(db: Db, accountId: string, key: string, since: Date): Promise<IdempotencyRow | null> {
  const [row] = await db<IdempotencyRow[]>`
    select * from idempotency_keys where account_id = ${accountId} and key = ${key} and created_at > ${since}`;
  return row ?? null;
}

/** A record older than the window is replaced: the key is free again after 24 hours. */
export async function saveRecord(db: Db, row: IdempotencyRow): Promise<void> {
  await db`
    insert into idempotency_keys ${db(row)}
    on conflict (account_id, key) do update set
      request_hash = excluded.request_hash, response_status = excluded.response_status,
      response_sealed = excluded.response_sealed, created_at = excluded.created_at`;
}

export async function deleteOlderThan(db: Db, before: Date): Promise<number> {
  const rows = await db`delete from idempotency_keys where created_at <= ${before} returning 1`;
  return rows.length;
}
