import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import { newId, newSecret, sha256 } from '../../../core/ids.js';
import { addUsd, formatUsd, isDecimal, subtractUsd } from '../../../core/money.js';
import type { Sql } from '../../../platform/db/connect.js';
import { listAccounts, lockAccount, type Account } from './model.js';
import * as q from './queries.js';

export const API_KEY_PREFIX = 'svc_live_';
export const MAX_API_KEYS = 20;
export const MAX_VIEWER_KEYS = 10;

/** Operator actions on accounts (the "dashboard": reached through the CLI, never the public API). */
export class AccountsService {
  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async create(input: {
    name: string;
    trusted?: boolean;
    pending?: boolean;
    creditUsd?: string;
    postpaid?: boolean;
  }): Promise<Account> {
    const credit = input.creditUsd ?? '0';
    if (!isDecimal(credit) || credit.startsWith('-'))
      throw new ApiError('invalid_request', `credit must be a non-negative decimal amount, got "${credit}"`, {
        field: 'credit',
      });
    const name = input.name.trim();
    if (!name || name.length > 200)
      throw new ApiError('invalid_request', 'name must be 1-200 characters', { field: 'name' });
    return q.insertAccount(this.sql, {
      id: newId('acc_'),
      name,
      state: input.pending ? 'pending' : 'active',
      trusted: input.trusted ?? false,
      billing_mode: input.postpaid ? 'postpaid' : 'prepaid',
      credit_usd: credit,
      recording_retention_days: 30,
      created_at: this.clock.now(),
    });
  }

  get(id: string): Promise<Account> {
    return this.must(q.findAccount(this.sql, id), id);
  }

  list(): Promise<Account[]> {
    return listAccounts(this.sql);
  }

  approve(id: string): Promise<Account> {
    return this.must(q.updateAccount(this.sql, id, { state: 'active' }), id);
  }

  suspend(id: string): Promise<Account> {
    return this.must(q.updateAccount(this.sql, id, { state: 'suspended' }), id);
  }

  trust(id: string, trusted = true): Promise<Account> {
    return this.must(q.updateAccount(this.sql, id, { trusted }), id);
  }

  /**
   * A negative amount corrects a mistake, but may not leave a prepaid account below zero (its
   * credit is what it has paid) unless `force`; a top-up is always taken, even if the account
   * stays below zero. The check and the change are one statement, so two corrections cannot race.
   */
  async addCredit(id: string, amountUsd: string, opts: { force?: boolean } = {}): Promise<Account> {
    if (!isDecimal(amountUsd))
      throw new ApiError(
        'invalid_request',
        `amount must be a decimal number of USD such as 25 or 12.50, got "${amountUsd}"`,
        { field: 'add' },
      );
    const changed = await q.addCredit(this.sql, id, amountUsd, this.clock.now(), {
      allowNegative: opts.force ?? false,
    });
    if (changed) return changed;
    const account = await this.get(id);
    const balance = subtractUsd(account.credit_usd, account.charged_usd);
    const result = addUsd(balance, amountUsd);
    const have = formatUsd(balance);
    throw new ApiError(
      'insufficient_credit',
      `Taking ${formatUsd(amountUsd.slice(1))} USD off prepaid account ${id} would leave its balance at ${formatUsd(result)} USD (it has ${have}): take off at most ${have}, or pass --force to go below zero.`,
      { field: 'add', balance_usd: have, result_usd: formatUsd(result) },
    );
  }

  /** The full key is returned once; only its SHA-256 is stored. */
  async createApiKey(accountId: string): Promise<{ id: string; key: string; account_id: string; created_at: Date }> {
    return this.sql.begin(async (tx) => {
      if (!(await lockAccount(tx, accountId))) throw notFoundAccount(accountId);
      const active = await q.countActiveApiKeys(tx, accountId);
      if (active >= MAX_API_KEYS) {
        throw new ApiError(
          'limit_api_keys',
          `The account has ${active} active API keys, the most allowed; revoke one first.`,
          { limit: MAX_API_KEYS, current: active },
        );
      }
      const key = newSecret(API_KEY_PREFIX);
      const row = {
        id: newId('key_'),
        account_id: accountId,
        token_hash: sha256(key),
        last4: key.slice(-4),
        created_at: this.clock.now(),
      };
      await q.insertApiKey(tx, row);
      return { id: row.id, key, account_id: accountId, created_at: row.created_at };
    });
  }

  async listApiKeys(accountId: string) {
    await this.get(accountId);
    return (await q.listApiKeys(this.sql, accountId)).map(({ token_hash: _hash, ...rest }) => rest);
  }

  async revokeApiKey(accountId: string, keyId: string): Promise<void> {
    if (!(await q.revokeApiKey(this.sql, accountId, keyId, this.clock.now()))) {
      throw new ApiError('not_found', `No active API key ${keyId} on account ${accountId}.`);
    }
  }

  async createViewerKey(
    accountId: string,
  ): Promise<{ id: string; secret: string; account_id: string; created_at: Date }> {
    return this.sql.begin(async (tx) => {
      if (!(await lockAccount(tx, accountId))) throw notFoundAccount(accountId);
      const active = await q.countActiveViewerKeys(tx, accountId);
      if (active >= MAX_VIEWER_KEYS) {
        throw new ApiError(
          'limit_viewer_keys',
          `The account has ${active} viewer keys, the most allowed; delete one first.`,
          { limit: MAX_VIEWER_KEYS, current: active },
        );
      }
      const row = {
        id: newId('vk_'),
        account_id: accountId,
        secret: newSecret('vks_', 40),
        created_at: this.clock.now(),
      };
      await q.insertViewerKey(tx, row);
      return row;
    });
  }

  /** Active viewer keys, without their secrets (shown once, at creation). */
  async listViewerKeys(accountId: string): Promise<{ id: string; account_id: string; created_at: Date }[]> {
    await this.get(accountId);
    const rows = await q.listViewerKeys(this.sql, accountId);
    return rows.map(({ id, account_id, created_at }) => ({ id, account_id, created_at }));
  }

  /**
   * Tokens it signed are refused within seconds (each node caches keys for 2 s); sessions already
   * opened with it go on until they end (at most 24 hours).
   */
  async deleteViewerKey(accountId: string, keyId: string): Promise<void> {
    if (!(await q.revokeViewerKey(this.sql, accountId, keyId, this.clock.now()))) {
      throw new ApiError('not_found', `No viewer key ${keyId} on account ${accountId}.`);
    }
  }

  private async must(found: Promise<Account | null>, id: string): Promise<Account> {
    const account = await found;
    if (!account) throw notFoundAccount(id);
    return account;
  }
}

const notFoundAccount = (id: string) => new ApiError('not_found', `No account ${id}.`);
