import type { Db } from '../../../platform/db/connect.js';
import type { Account, ViewerKeyRow } from './model.js';

export async function insertAccount(db: Db, account: Omit<Account, 'charged_usd'>): Promise<Account> {
  const [row] = await db<Account[]>`
    with a as (insert into accounts ${db(account)} returning *),
    c as (insert into credits (account_id, amount_usd, created_at) select id, credit_usd, created_at from a where credit_usd <> 0)
    select * from a`;
  return row as Account;
}

export async function findAccount(db: Db, id: string): Promise<Account | null> {
  const [row] = await db<Account[]>`select * from accounts where id = ${id}`;
  return row ?? null;
}

export async function updateAccount(
  db: Db,
  id: string,
  changes: Partial<Pick<Account, 'state' | 'trusted' | 'billing_mode' | 'name'>>,
): Promise<Account | null> {
  const [row] = await db<Account[]>`update accounts set ${db(changes)} where id = ${id} returning *`;
  return row ?? null;
}

/**
 * Null when there is no such account, or when a decrease would leave a prepaid account's balance
 * below zero and that is not allowed. Each change is also a row of the credits ledger.
 */
export async function addCredit(
  db: Db,
  id: string,
  amountUsd: string,
  at: Date,
  opts: { allowNegative: boolean },
): Promise<Account | null> {
  const [row] = await db<Account[]>`
    with a as (
      update accounts set credit_usd = credit_usd + ${amountUsd}::numeric
      where id = ${id}
        and (${opts.allowNegative} or billing_mode <> 'prepaid' or ${amountUsd}::numeric >= 0 or credit_usd - charged_usd + ${amountUsd}::numeric >= 0)
      returning *
    ),
    c as (insert into credits (account_id, amount_usd, created_at) select id, ${amountUsd}::numeric, ${at} from a)
    select * from a`;
  return row ?? null;
}

export async function findAccountByApiKeyHash(db: Db, hash: Buffer): Promise<Account | null> {
  const [row] = await db<Account[]>`
    select a.* from api_keys k join accounts a on a.id = k.account_id
    where k.token_hash = ${hash} and k.revoked_at is null`;
  return row ?? null;
}

export interface ApiKeyRow {
  id: string;
  account_id: string;
  token_hash: Buffer;
  last4: string;
  created_at: Date;
  revoked_at: Date | null;
}

export async function countActiveApiKeys(db: Db, accountId: string): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from api_keys where account_id = ${accountId} and revoked_at is null`;
  return row?.n ?? 0;
}

export async function insertApiKey(db: Db, key: Omit<ApiKeyRow, 'revoked_at'>): Promise<void> {
  await db`insert into api_keys ${db(key)}`;
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeyRow[]> {
  return db<ApiKeyRow[]>`select * from api_keys where account_id = ${accountId} order by created_at desc`;
}

export async function revokeApiKey(db: Db, accountId: string, keyId: string, at: Date): Promise<boolean> {
  const rows = await db`
    update api_keys set revoked_at = ${at} where id = ${keyId} and account_id = ${accountId} and revoked_at is null
    returning id`;
  return rows.length > 0;
}

export async function countActiveViewerKeys(db: Db, accountId: string): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from viewer_keys where account_id = ${accountId} and revoked_at is null`;
  return row?.n ?? 0;
}

export async function insertViewerKey(db: Db, key: Omit<ViewerKeyRow, 'revoked_at'>): Promise<void> {
  await db`insert into viewer_keys ${db(key)}`;
}

/** The account's active viewer keys, oldest first. */
export async function listViewerKeys(db: Db, accountId: string): Promise<ViewerKeyRow[]> {
  return db<ViewerKeyRow[]>`
    select * from viewer_keys where account_id = ${accountId} and revoked_at is null order by created_at, id`;
}

export async function revokeViewerKey(db: Db, accountId: string, keyId: string, at: Date): Promise<boolean> {
  const rows = await db`
    update viewer_keys set revoked_at = ${at} where id = ${keyId} and account_id = ${accountId} and revoked_at is null
    returning id`;
  return rows.length > 0;
}
