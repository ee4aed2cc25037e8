import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApi, type Api } from '../../src/composition/appliance.js';
import { resolveConfig } from '../../src/config/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

/**
 * Two nodes' APIs on one database, each with its own connections (and so its own LISTEN). The
 * manual clock never moves unless a test moves it: a change seen without moving it came by NOTIFY.
 */
interface Ctx {
  db: TestDatabase;
  clock: ManualClock;
  accounts: AccountsService;
  other: Sql;
  nodes: Api[];
}

const t = suite<Ctx>('accounts: API key cache across nodes');

t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  ctx.clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
  ctx.accounts = new AccountsService(ctx.db.sql, ctx.clock);
  ctx.other = connect(ctx.db.url, { max: 4 });
  const config = resolveConfig('/nonexistent', { host: 'media.test' });
  const secrets = { postgres_password: 'unused', signing_key: 'test-signing', data_key: 'test-data' };
  const logger = createLogger('silent');
  ctx.nodes = [
    await createApi({ sql: ctx.db.sql, config, clock: ctx.clock, logger, secrets }),
    await createApi({ sql: ctx.other, config, clock: ctx.clock, logger, secrets }),
  ];
});
t.after(async (ctx) => {
  for (const node of ctx.nodes) await node.app.close();
  await ctx.other.end({ timeout: 5 });
  await ctx.db.drop();
});

const status = async (node: Api, key: string): Promise<string> => {
  const res = await node.app.inject({ method: 'GET', url: '/v1/streams', headers: { authorization: `Bearer ${key}` } });
  return res.statusCode === 200 ? 'ok' : (res.json() as { error: { code: string } }).error.code;
};

/** Polls every node until each answers `expected`; fails if one still does not after `ms` of real time. */
async function everyNode(nodes: Api[], key: string, expected: string, ms = 1000): Promise<void> {
  const deadline = Date.now() + ms;
  for (const [i, node] of nodes.entries()) {
    let got = await status(node, key);
    while (got !== expected && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      got = await status(node, key);
    }
    assert.is(got, expected, `node ${i} within ${ms} ms`);
  }
}

async function newKey({ accounts }: Ctx): Promise<{ accountId: string; keyId: string; key: string }> {
  const account = await accounts.create({ name: 'Cached', creditUsd: '10' });
  const { id, key } = await accounts.createApiKey(account.id);
  return { accountId: account.id, keyId: id, key };
}

t('a revoked key is refused on every node within a second, by notification', async (ctx) => {
  const { accountId, keyId, key } = await newKey(ctx);
  await everyNode(ctx.nodes, key, 'ok');
  await ctx.accounts.revokeApiKey(accountId, keyId);
  await everyNode(ctx.nodes, key, 'unauthorized');
});

t('suspension and approval reach every node within a second', async (ctx) => {
  const { accountId, key } = await newKey(ctx);
  await everyNode(ctx.nodes, key, 'ok');
  await ctx.accounts.suspend(accountId);
  await everyNode(ctx.nodes, key, 'tenant_suspended');
  await ctx.accounts.approve(accountId);
  await everyNode(ctx.nodes, key, 'ok');
});

t('a lost notification is bounded by the TTL: a second later the key is read again', async (ctx) => {
  const { accountId, keyId, key } = await newKey(ctx);
  await everyNode(ctx.nodes, key, 'ok');
  await ctx.db.sql`alter table api_keys disable trigger api_keys_notify_change`;
  try {
    await ctx.accounts.revokeApiKey(accountId, keyId);
    // Still believed: the cache answers, not the database (this is what the TTL bounds).
    assert.is(await status(ctx.nodes[1] as Api, key), 'ok');
    ctx.clock.advance(1);
    await everyNode(ctx.nodes, key, 'unauthorized', 0);
  } finally {
    await ctx.db.sql`alter table api_keys enable trigger api_keys_notify_change`;
  }
});

t('a node whose LISTEN connection drops forgets its keys when it listens again', async (ctx) => {
  const { accountId, keyId, key } = await newKey(ctx);
  await everyNode(ctx.nodes, key, 'ok');
  // The revocation is announced while no one listens: only the reconnection can tell the nodes.
  await ctx.db.sql`alter table api_keys disable trigger api_keys_notify_change`;
  try {
    await ctx.accounts.revokeApiKey(accountId, keyId);
    await ctx.db
      .sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`;
    await everyNode(ctx.nodes, key, 'unauthorized', 3000);
  } finally {
    await ctx.db.sql`alter table api_keys enable trigger api_keys_notify_change`;
  }
  // Listening again: the next change arrives by notification as before.
  const second = await newKey(ctx);
  await everyNode(ctx.nodes, second.key, 'ok');
  await ctx.accounts.revokeApiKey(second.accountId, second.keyId);
  await everyNode(ctx.nodes, second.key, 'unauthorized');
});

t.run();
