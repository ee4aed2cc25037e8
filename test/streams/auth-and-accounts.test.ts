import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertError, createStream } from '../helpers/streams.js';

const t = suite<{ env: TestApi }>('streams: authentication and account state');
t.before(async (ctx) => {
  ctx.env = await createTestApi();
});
t.after(async (ctx) => {
  await ctx.env.close();
});

const ID = 'str_aaaaaaaaaaaaaaaaaaaa';
const ENDPOINTS: [string, (id: string) => string, unknown?][] = [
  ['POST', () => '/v1/streams', {}],
  ['GET', () => '/v1/streams'],
  ['GET', (id) => `/v1/streams/${id}`],
  ['PATCH', (id) => `/v1/streams/${id}`, { name: 'x' }],
  ['DELETE', (id) => `/v1/streams/${id}`],
  ['POST', (id) => `/v1/streams/${id}/stream-key`],
  ['GET', (id) => `/v1/streams/${id}/viewers`],
];

t('401 unauthorized on every endpoint: missing, malformed, wrong and revoked keys', async ({ env }) => {
  const account = await env.newAccount();
  const s = await createStream(env, account.key);
  const revoked = await env.accounts.createApiKey(account.id);
  assert.is((await env.call('GET', '/v1/streams', { key: revoked.key })).status, 200, 'works before revocation');
  await env.accounts.revokeApiKey(account.id, revoked.id);

  const variants: Record<string, string | undefined>[] = [
    {},
    { authorization: '' },
    { authorization: 'Bearer' },
    { authorization: 'Bearer ' },
    { authorization: `Basic ${Buffer.from(`${account.key}:`).toString('base64')}` },
    { authorization: account.key },
    { authorization: `Bearer ${account.key.replace('svc_live_', 'sk_live_')}` },
    { authorization: `Bearer ${account.key}x` },
    { authorization: `Bearer ${account.key.slice(0, -1)}` },
    { authorization: `Bearer svc_live_${'a'.repeat(32)}` },
    { authorization: `Bearer svc_live_${'a'.repeat(5000)}` },
    { authorization: `Bearer ${account.key} extra` },
    { authorization: `Bearer ${revoked.key}` },
  ];
  for (const [method, path, body] of ENDPOINTS) {
    for (const headers of variants) {
      const h = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >;
      const res = await env.call(method as 'GET', path(s.id), { headers: h, body });
      assertError(res, 401, 'unauthorized');
    }
  }
  // Still pending and unchanged: nothing ran.
  const got = await env.call('GET', `/v1/streams/${s.id}`, { key: account.key });
  assert.is(got.body.status, 'pending');
  assert.is(got.body.name, null);
  // The scheme is case-insensitive; revoking one key leaves the account's other key working.
  assert.is(
    (await env.call('GET', '/v1/streams', { headers: { authorization: `bearer ${account.key}` } })).status,
    200,
  );
});

t('401 comes before 404: an unknown id without a key is unauthorized', async ({ env }) => {
  assertError(await env.call('GET', `/v1/streams/${ID}`), 401, 'unauthorized');
  assertError(await env.call('GET', `/v1/streams/${ID}/viewers`, { key: 'svc_live_nope' }), 401, 'unauthorized');
});

t('403 account_pending on create, list, get, patch and delete; approval lifts it', async ({ env }) => {
  const pending = await env.newAccount({ pending: true });
  for (const [method, path, body] of ENDPOINTS.slice(0, 5)) {
    assertError(await env.call(method as 'GET', path(ID), { key: pending.key, body }), 403, 'account_pending');
  }
  assert.is(await streamCount(env, pending.id), 0);
  await env.accounts.approve(pending.id);
  await createStream(env, pending.key);
});

t('403 tenant_suspended on create, list, get, patch and delete, also for its own streams', async ({ env }) => {
  const acc = await env.newAccount();
  const s = await createStream(env, acc.key, { name: 'before suspension' });
  await env.accounts.suspend(acc.id);
  for (const [method, path, body] of ENDPOINTS.slice(0, 5)) {
    assertError(await env.call(method as 'GET', path(s.id), { key: acc.key, body }), 403, 'tenant_suspended');
  }
  const row = await env.db.sql`select status, name from streams where id = ${s.id}`;
  assert.equal({ ...row[0] }, { status: 'pending', name: 'before suspension' }, 'neither patched nor cancelled');
  assert.is(await streamCount(env, acc.id), 1);
  await env.accounts.approve(acc.id);
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key: acc.key })).status, 200);
});

t('the key is checked before the body is read; the account state only after validation', async ({ env }) => {
  const pending = await env.newAccount({ pending: true });
  const bad = { payload: '{"colour":"red"}', headers: { 'content-type': 'application/json' } };
  const notJson = { payload: '{', headers: { 'content-type': 'application/json' } };
  for (const [method, path] of ENDPOINTS.filter(([m]) => m === 'POST' || m === 'PATCH')) {
    assertError(await env.call(method as 'POST', path(ID), bad), 401, 'unauthorized');
    assertError(await env.call(method as 'POST', path(ID), notJson), 401, 'unauthorized');
    assertError(await env.call(method as 'POST', path(ID), { ...bad, key: 'svc_live_nope' }), 401, 'unauthorized');
  }
  // create and patch list 403: a bad request from a pending account is still its 400.
  for (const [method, path] of ENDPOINTS.slice(0, 5).filter(([m]) => m !== 'GET' && m !== 'DELETE')) {
    assertError(await env.call(method as 'POST', path(ID), { ...bad, key: pending.key }), 400, 'invalid_request');
  }
  assertError(await env.call('GET', '/v1/streams?limit=0', { key: pending.key }), 400, 'invalid_request');
  assertError(await env.call('GET', '/v1/streams?limit=1', { key: pending.key }), 403, 'account_pending');
});

t('404 not_found for unknown ids and for streams of another account', async ({ env }) => {
  const owner = await env.newAccount();
  const s = await createStream(env, owner.key, { name: 'mine' });
  const stranger = await env.newAccount();
  for (const [method, path, body] of ENDPOINTS.slice(2)) {
    assertError(await env.call(method as 'GET', path(s.id), { key: stranger.key, body }), 404, 'not_found');
    assertError(await env.call(method as 'GET', path(ID), { key: owner.key, body }), 404, 'not_found');
    for (const odd of ['str_', 'STR_AAAAAAAAAAAAAAAAAAAA', `${s.id}x`, 'x'.repeat(150), '%00', '..', 'str_%E2%98%83']) {
      assertError(await env.call(method as 'GET', path(odd), { key: owner.key, body }), 404, 'not_found');
    }
  }
  const got = await env.call('GET', `/v1/streams/${s.id}`, { key: owner.key });
  assert.is(got.body.status, 'pending');
  assert.is(got.body.name, 'mine');
  assert.is((await env.call('GET', '/v1/streams', { key: stranger.key })).body.data.length, 0);
});

t('keyed endpoints are not callable from browsers: no CORS headers, preflights refused', async ({ env }) => {
  const { key } = await env.newAccount();
  const origin = 'https://evil.example';
  const pre = await env.call('OPTIONS', '/v1/streams', {
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization,content-type',
    },
  });
  assert.ok(pre.status >= 400, `preflight refused, got ${pre.status}`);
  const s = await createStream(env, key);
  const preOne = await env.call('OPTIONS', `/v1/streams/${s.id}`, {
    headers: { origin, 'access-control-request-method': 'DELETE' },
  });
  assert.ok(preOne.status >= 400);
  const get = await env.call('GET', '/v1/streams', { key, headers: { origin } });
  assert.is(get.status, 200);
  const post = await env.call('POST', '/v1/streams', { key, headers: { origin }, body: {} });
  for (const res of [pre, preOne, get, post]) {
    for (const h of Object.keys(res.headers)) assert.not.ok(h.startsWith('access-control-'), `${h} present`);
  }
});

async function streamCount(env: TestApi, accountId: string): Promise<number> {
  const rows = await env.db.sql<
    { n: number }[]
  >`select count(*)::int as n from streams where account_id = ${accountId}`;
  return rows[0]?.n ?? 0;
}

t.run();
