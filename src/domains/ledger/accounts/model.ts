/**
 * What other domains know of an account: its row, the lock that orders work on it, and the reads
 * they make (every account for the operator, a viewer key by id). One of the folder's doors (with
 * auth.ts and service.ts, see `.dependency-cruiser.mjs`); the bottom of the folder.
 */
import type { Db } from '../../../platform/db/connect.js';

export type AccountState = 'pending' | 'active' | 'suspended';
export type BillingMode = 'prepaid' | 'postpaid';

export interface Account {
  id: string;
  name: string;
  state: AccountState;
  trusted: boolean;
  billing_mode: BillingMode;
  /** Decimal strings (numeric): all credit added, and all charged (billing's ledger keeps it). */
  credit_usd: string;
  charged_usd: string;
  recording_retention_days: number | null;
  created_at: Date;
}

/** Newest first; the first `limit` (null: all). */
export async function listAccounts(db: Db, limit: number | null = null): Promise<Account[]> {
  return db<Account[]>`select * from accounts order by created_at desc, id limit ${limit}`;
}

/** Row lock: stream creation checks limits under it so two requests cannot both pass. */
export async function lockAccount(db: Db, id: string): Promise<Account | null> {
  const [row] = await db<Account[]>`select * from accounts where id = ${id} for update`;
  return row ?? null;
}

export interface ViewerKeyRow {
  id: string;
  account_id: string;
  secret: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** An active viewer key by id (any account): the key named by a token's `kid`. */
export async function findActiveViewerKey(db: Db, id: string): Promise<ViewerKeyRow | null> {
  const [row] = await db<ViewerKeyRow[]>`select * from viewer_keys where id = ${id} and revoked_at is null`;
  return row ?? null;
}
