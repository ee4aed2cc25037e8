import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { FastifyInstance } from 'fastify';
import { registerApiKeyAuth, requireApiKey } from '../../src/domains/ledger/accounts/auth.js';
import { ApiKeys } from '../../src/domains/ledger/accounts/key-cache.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { ManualClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createServer } from '../../src/platform/http/server.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const t = suite<{ db: TestDatabase; app: FastifyInstance; key: string; accountId: string }>('accounts: keyed routes');

t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  const clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
  const accounts = new AccountsService(ctx.db.sql, clock);
  const account = await accounts.create({ name: 'Keyed', creditUsd: '1' });
  ctx.accountId = account.id;
  ctx.key = (await accounts.createApiKey(account.id)).key;
  ctx.app = await createServer({ logger: createLogger('silent') });
  registerApiKeyAuth(ctx.app, new ApiKeys(ctx.db.sql, clock, createLogger('silent')));
  await ctx.app.register(async (scope) => {
    requireApiKey(scope);
    scope.get('/keyed', async (request) => ({ account: request.account.id }));
  });
  // A mistake the type cannot see: a route outside the keyed scope that reads the account anyway.
  ctx.app.get('/open', async (request) => ({ account: request.account.id }));
  await ctx.app.ready();
});
t.after(async (ctx) => {
  await ctx.app.close();
  await ctx.db.drop();
});

const get = (app: FastifyInstance, url: string, key?: string) =>
  app.inject({ method: 'GET', url, headers: key ? { authorization: `Bearer ${key}` } : {} });

t('a keyed route reads the caller’s account', async ({ app, key, accountId }) => {
  const res = await get(app, '/keyed', key);
  assert.is(res.statusCode, 200, res.payload);
  assert.equal(res.json(), { account: accountId });
  assert.is((await get(app, '/keyed')).json().error.code, 'unauthorized');
});

t('reading the account on a route outside a keyed scope is 401, even with a valid key', async ({ app, key }) => {
  for (const res of [await get(app, '/open'), await get(app, '/open', key)]) {
    assert.is(res.statusCode, 401, res.payload);
    assert.is(res.json().error.code, 'unauthorized');
  }
});

t.run();
