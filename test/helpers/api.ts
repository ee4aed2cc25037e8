import type { InjectOptions } from 'fastify';
import { suite, type Test } from 'uvu';
import type { ApiKeys } from '../../src/domains/ledger/accounts/key-cache.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import type { Account } from '../../src/domains/ledger/accounts/model.js';
import { createApi, type Api } from '../../src/composition/appliance.js';
import { resolveConfig, type Config } from '../../src/config/config.js';
import type { ConfigFile } from '../../src/config/schema.js';
import type { Secrets } from '../../src/config/secrets.js';
import { ManualClock, type Clock } from '../../src/core/clock.js';
import type { Sql } from '../../src/platform/db/connect.js';
import { createLogger } from '../../src/core/logger.js';
import { createTestDatabase, type TestDatabase } from './db.js';

export interface TestApi {
  api: Api;
  db: TestDatabase;
  clock: ManualClock;
  config: Config;
  accounts: AccountsService;
  /** An active account with credit and an API key. */
  newAccount(opts?: {
    trusted?: boolean;
    pending?: boolean;
    credit?: string;
    postpaid?: boolean;
  }): Promise<{ id: string; key: string }>;
  call(
    method: InjectOptions['method'],
    url: string,
    opts?: { key?: string; body?: unknown; headers?: Record<string, string>; payload?: string },
  ): Promise<Reply>;
  close(): Promise<void>;
}

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  // Tests read arbitrary response fields.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

/**
 * `clockStart`: where the manual clock starts (webhook receivers check timestamps against real time).
 * `storageKeys`: secrets.json's key pair for `storage` in the config.
 */
export async function createTestApi(
  file: ConfigFile = {},
  opts: { clockStart?: Date; storageKeys?: Secrets['storage'] } = {},
): Promise<TestApi> {
  const db = await createTestDatabase();
  const clock = new ManualClock(opts.clockStart ?? new Date('2026-11-22T12:00:00.000Z'));
  // Capacity is tested on its own; elsewhere any number of streams may wait.
  const config = resolveConfig('/nonexistent', { host: 'media.test', capacity: { cores: 1000 }, ...file });
  const api = await createApi({
    sql: db.sql,
    config,
    clock,
    logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
    secrets: {
      postgres_password: 'unused',
      signing_key: 'test-signing',
      data_key: 'test-data',
      ...(opts.storageKeys ? { storage: opts.storageKeys } : {}),
    },
  });
  const accounts = new SyncedAccounts(db.sql, clock, api.apiKeys);
  return {
    api,
    db,
    clock,
    config,
    accounts,
    async newAccount(opts = {}) {
      const account = await accounts.create({
        name: 'Test',
        trusted: opts.trusted,
        pending: opts.pending,
        creditUsd: opts.credit ?? '50',
        postpaid: opts.postpaid,
      });
      const { key } = await accounts.createApiKey(account.id);
      return { id: account.id, key };
    },
    async call(method, url, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let payload = opts.payload;
      if (opts.body !== undefined) {
        payload = JSON.stringify(opts.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await api.app.inject({ method, url, headers, payload });
      let body: unknown = null;
      try {
        body = JSON.parse(res.payload);
      } catch {
        body = null;
      }
      return { status: res.statusCode, headers: res.headers, body, text: res.payload };
    },
    async close() {
      await api.app.close();
      await db.drop();
    },
  };
}

/**
 * The operator's actions, each returning once this API's key cache has heard of it (notifications
 * take milliseconds; a test's next request may be quicker). test/accounts/key-cache.test.ts checks
 * the notifications themselves.
 */
class SyncedAccounts extends AccountsService {
  constructor(
    sql: Sql,
    clock: Clock,
    private readonly keys: ApiKeys,
  ) {
    super(sql, clock);
  }
  override approve(id: string): Promise<Account> {
    return this.synced(super.approve(id));
  }
  override suspend(id: string): Promise<Account> {
    return this.synced(super.suspend(id));
  }
  override trust(id: string, trusted = true): Promise<Account> {
    return this.synced(super.trust(id, trusted));
  }
  override revokeApiKey(accountId: string, keyId: string): Promise<void> {
    return this.synced(super.revokeApiKey(accountId, keyId));
  }
  private async synced<T>(done: Promise<T>): Promise<T> {
    const result = await done;
    await this.keys.sync();
    return result;
  }
}

export type ApiSuiteContext = { env: TestApi; key: string; accountId: string };

/** A uvu suite over a fresh API and database, with one active account's key in the context. */
export function apiSuite(name: string, file: ConfigFile = {}): Test<ApiSuiteContext> {
  const t = suite<ApiSuiteContext>(name);
  t.before(async (ctx) => {
    ctx.env = await createTestApi(file);
    const { id, key } = await ctx.env.newAccount();
    ctx.key = key;
    ctx.accountId = id;
  });
  t.after(async (ctx) => {
    await ctx.env.close();
  });
  return t;
}
