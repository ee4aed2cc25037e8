import { createHash } from 'node:crypto';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/core/errors.js';
import { MAX_API_KEYS, MAX_VIEWER_KEYS } from '../../src/domains/ledger/accounts/service.js';
import { createTestApi, type TestApi } from '../helpers/api.js';

const t = suite<{ env: TestApi }>('accounts: keys and credit');
t.before(async (ctx) => {
  ctx.env = await createTestApi();
});
t.after(async (ctx) => {
  await ctx.env.close();
});

async function refusal(work: Promise<unknown>): Promise<ApiError> {
  try {
    await work;
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

t('API keys: stored as SHA-256 only, at most 20 active, a revoked key stops at once', async ({ env }) => {
  const account = await env.accounts.create({ name: 'Keys', creditUsd: '10' });
  const first = await env.accounts.createApiKey(account.id);
  assert.match(first.key, /^svc_live_[A-Za-z0-9]{32}$/);
  const [stored] = await env.db.sql<{ token_hash: Buffer }[]>`select token_hash from api_keys where id = ${first.id}`;
  assert.equal(stored?.token_hash, createHash('sha256').update(first.key).digest());
  const anywhere = await env.db
    .sql`select 1 from api_keys where encode(token_hash, 'escape') like ${'%' + first.key + '%'} or last4 = ${first.key}`;
  assert.is(anywhere.length, 0, 'the key itself is not stored');

  for (let i = 1; i < MAX_API_KEYS; i++) await env.accounts.createApiKey(account.id);
  const refused = await refusal(env.accounts.createApiKey(account.id));
  assert.is(refused.code, 'limit_api_keys');
  assert.is(refused.status, 429);
  assert.equal(refused.details, { limit: 20, current: 20 });

  assert.is((await env.call('GET', '/v1/streams', { key: first.key })).status, 200);
  await env.accounts.revokeApiKey(account.id, first.id);
  const after = await env.call('GET', '/v1/streams', { key: first.key });
  assert.is(after.status, 401);
  assert.is(after.body.error.code, 'unauthorized');
  // A revoked key frees its slot.
  await env.accounts.createApiKey(account.id);
});

t('viewer keys: vk_ id and vks_ secret, at most 10', async ({ env }) => {
  const account = await env.accounts.create({ name: 'Viewer keys' });
  const key = await env.accounts.createViewerKey(account.id);
  assert.match(key.id, /^vk_[a-z0-9]{20}$/);
  assert.match(key.secret, /^vks_[A-Za-z0-9]{40}$/);
  for (let i = 1; i < MAX_VIEWER_KEYS; i++) await env.accounts.createViewerKey(account.id);
  const refused = await refusal(env.accounts.createViewerKey(account.id));
  assert.is(refused.code, 'limit_viewer_keys');
  assert.equal(refused.details, { limit: 10, current: 10 });
});

t('credit is exact decimal arithmetic, and bad amounts are refused', async ({ env }) => {
  const account = await env.accounts.create({ name: 'Credit', creditUsd: '0' });
  for (let i = 0; i < 10; i++) await env.accounts.addCredit(account.id, '0.1');
  assert.is((await env.accounts.get(account.id)).credit_usd, '1.000000');
  await env.accounts.addCredit(account.id, '0.000001');
  assert.is((await env.accounts.get(account.id)).credit_usd, '1.000001');
  for (const bad of ['1e3', 'ten', '', '1.2.3', 'NaN']) {
    assert.is((await refusal(env.accounts.addCredit(account.id, bad))).code, 'invalid_request', bad);
  }
  assert.is((await refusal(env.accounts.create({ name: 'Negative', creditUsd: '-5' }))).code, 'invalid_request');
  assert.is((await refusal(env.accounts.get('acc_missing'))).code, 'not_found');
});

t(
  'a correction may not leave a prepaid account below zero unless forced; top-ups and postpaid accounts are never refused',
  async ({ env }) => {
    const account = await env.accounts.create({ name: 'Corrections', creditUsd: '95' });
    const refused = await refusal(env.accounts.addCredit(account.id, '-1000'));
    assert.is(refused.code, 'insufficient_credit');
    assert.equal(refused.details, { field: 'add', balance_usd: '95.00', result_usd: '-905.00' });
    assert.match(
      refused.message,
      /would leave its balance at -905\.00 USD \(it has 95\.00\): take off at most 95\.00, or pass --force/,
    );
    assert.is((await env.accounts.get(account.id)).credit_usd, '95.000000', 'nothing changed');
    assert.is(
      (await refusal(env.accounts.addCredit(account.id, '-95.000001'))).code,
      'insufficient_credit',
      'one micro-dollar too many',
    );

    assert.is((await env.accounts.addCredit(account.id, '-95')).credit_usd, '0.000000', 'down to exactly zero');
    assert.is((await env.accounts.addCredit(account.id, '-10', { force: true })).credit_usd, '-10.000000', 'forced');
    assert.is(
      (await env.accounts.addCredit(account.id, '4')).credit_usd,
      '-6.000000',
      'a top-up that leaves it below zero still helps',
    );
    assert.is(
      (await refusal(env.accounts.addCredit(account.id, '-1'))).code,
      'insufficient_credit',
      'already below zero: no further correction',
    );

    const postpaid = await env.accounts.create({ name: 'Postpaid', postpaid: true });
    assert.is((await env.accounts.addCredit(postpaid.id, '-5')).credit_usd, '-5.000000');
    assert.is((await refusal(env.accounts.addCredit('acc_missing', '-5'))).code, 'not_found');
  },
);

t('an account with exactly 1.00 USD may create; 0.999999 may not', async ({ env }) => {
  const rich = await env.newAccount({ credit: '1.00' });
  assert.is((await env.call('POST', '/v1/streams', { key: rich.key })).status, 201);
  const poor = await env.newAccount({ credit: '0.999999' });
  const res = await env.call('POST', '/v1/streams', { key: poor.key });
  assert.is(res.status, 402);
  assert.is(res.body.error.code, 'insufficient_credit');
});

t.run();
