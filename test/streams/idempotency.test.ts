import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertError, assertInvalidField, sleep } from '../helpers/streams.js';

const t = suite<{ env: TestApi }>('streams: idempotency');
t.before(async (ctx) => {
  ctx.env = await createTestApi({ limits: { new: { pending_streams: 100, creations_per_hour: 100 } } });
});
t.after(async (ctx) => {
  await ctx.env.close();
});

const post = (env: TestApi, key: string, idem: string | undefined, opts: { body?: unknown; payload?: string } = {}) =>
  env.call('POST', '/v1/streams', {
    key,
    body: opts.body,
    payload: opts.payload,
    headers: {
      ...(idem !== undefined ? { 'idempotency-key': idem } : {}),
      ...(opts.payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
  });

const countStreams = async (env: TestApi, accountId: string) =>
  (await env.db.sql<{ n: number }[]>`select count(*)::int as n from streams where account_id = ${accountId}`)[0]?.n;

t('the same key and body (keys in another order) replay the first response; one stream is created', async ({ env }) => {
  const { id, key } = await env.newAccount();
  const first = await post(env, key, 'order-1', {
    payload: '{"name":"Town hall","metadata":{"a":1,"b":[1,{"x":1,"y":2}]},"record":false}',
  });
  assert.is(first.status, 201, first.text);
  assert.is(first.headers['idempotent-replayed'], undefined);
  env.clock.advance(30);
  const again = await post(env, key, 'order-1', {
    payload: '{ "record": false, "metadata": {"b": [1, {"y": 2, "x": 1}], "a": 1}, "name": "Town hall" }',
  });
  assert.is(again.status, 201, again.text);
  assert.is(again.headers['idempotent-replayed'], 'true');
  assert.equal(again.body, first.body, 'the first response, secrets included');
  assert.is(again.body.stream_key, first.body.stream_key);
  assert.match(String(again.headers['x-request-id']), /^req_/);
  assert.is.not(again.headers['x-request-id'], first.headers['x-request-id']);
  assert.is(await countStreams(env, id), 1);
});

t('an absent body and an empty object are the same request', async ({ env }) => {
  const { id, key } = await env.newAccount();
  const first = await post(env, key, 'empty');
  assert.is(first.status, 201, first.text);
  const again = await post(env, key, 'empty', { body: {} });
  assert.is(again.status, 201, again.text);
  assert.is(again.headers['idempotent-replayed'], 'true');
  assert.is(again.body.id, first.body.id);
  assert.is(await countStreams(env, id), 1);
});

t('the same key with a different body: 422 idempotency_key_reused, nothing created', async ({ env }) => {
  const { id, key } = await env.newAccount();
  assert.is((await post(env, key, 'k-422', { body: { name: 'a' } })).status, 201);
  const res = await post(env, key, 'k-422', { body: { name: 'b' } });
  assertError(res, 422, 'idempotency_key_reused');
  assertError(await post(env, key, 'k-422', { body: { name: 'a', record: true } }), 422, 'idempotency_key_reused');
  assert.is(await countStreams(env, id), 1);
});

t('keys are per account', async ({ env }) => {
  const a = await env.newAccount();
  const b = await env.newAccount();
  const ra = await post(env, a.key, 'shared', { body: { name: 'a' } });
  const rb = await post(env, b.key, 'shared', { body: { name: 'b' } });
  assert.is(ra.status, 201);
  assert.is(rb.status, 201);
  assert.is(rb.headers['idempotent-replayed'], undefined);
  assert.is.not(ra.body.id, rb.body.id);
});

t('Idempotency-Key must be 1-255 characters', async ({ env }) => {
  const { id, key } = await env.newAccount();
  assertInvalidField(await post(env, key, ''), 'idempotency-key');
  assertInvalidField(await post(env, key, 'k'.repeat(256)), 'idempotency-key');
  assert.is(await countStreams(env, id), 0);
  assert.is((await post(env, key, 'k'.repeat(255))).status, 201);
  assert.is((await post(env, key, 'k')).status, 201);
  const odd = await post(env, key, 'a key: with spaces, "quotes" and ü');
  assert.is(odd.status, 201, odd.text);
  assert.is((await post(env, key, 'a key: with spaces, "quotes" and ü')).headers['idempotent-replayed'], 'true');
});

t('a key is remembered 24 hours, then free again', async ({ env }) => {
  const { id, key } = await env.newAccount();
  const first = await post(env, key, 'daily', { body: { name: 'a' } });
  env.clock.advance(24 * 3600 - 1);
  const replay = await post(env, key, 'daily', { body: { name: 'a' } });
  assert.is(replay.headers['idempotent-replayed'], 'true');
  assert.is(replay.body.id, first.body.id);
  env.clock.advance(1);
  const fresh = await post(env, key, 'daily', { body: { name: 'different body is fine now' } });
  assert.is(fresh.status, 201, fresh.text);
  assert.is(fresh.headers['idempotent-replayed'], undefined);
  assert.is.not(fresh.body.id, first.body.id);
  // ... and is remembered again from now on.
  assert.is((await post(env, key, 'daily', { body: { name: 'different body is fine now' } })).body.id, fresh.body.id);
  assert.is(await countStreams(env, id), 2);
});

t('concurrent requests with the same key create one stream', async ({ env }) => {
  const { id, key } = await env.newAccount();
  const results = await Promise.all(
    Array.from({ length: 8 }, () => post(env, key, 'race', { body: { name: 'race' } })),
  );
  for (const r of results) assert.is(r.status, 201, r.text);
  assert.is(new Set(results.map((r) => r.body.id)).size, 1);
  assert.is(results.filter((r) => r.headers['idempotent-replayed'] === 'true').length, 7);
  assert.is(await countStreams(env, id), 1);
});

t('overlapping calls with one key run the work once; the others replay it', async ({ env }) => {
  const { id } = await env.newAccount();
  let runs = 0;
  const work = async () => {
    runs++;
    await sleep(80); // long enough that every call is waiting before the first stores its answer
    return { status: 201, body: { run: runs } };
  };
  const results = await Promise.all([1, 2, 3, 4].map(() => env.api.idempotency.run(id, 'slow', { a: 1 }, work)));
  assert.is(runs, 1);
  assert.equal(results.map((r) => r.replayed).sort(), [false, true, true, true]);
  for (const r of results) assert.equal(r.body, { run: 1 });
});

t('a failed request is not stored: the same key works once the cause is fixed', async ({ env }) => {
  const { id, key } = await env.newAccount({ credit: '0.99' });
  assertError(await post(env, key, 'after-topup', { body: { name: 'x' } }), 402, 'insufficient_credit');
  assertError(await post(env, key, 'after-topup', { body: { name: 'x' } }), 402, 'insufficient_credit');
  // A refused request under the key does not bind the key to its body either.
  await env.accounts.addCredit(id, '10');
  const ok = await post(env, key, 'after-topup', { body: { name: 'y' } });
  assert.is(ok.status, 201, ok.text);
  assert.is(ok.headers['idempotent-replayed'], undefined);

  const limited = await env.newAccount();
  assertError(await post(env, limited.key, 'res', { body: { max_resolution: 1080 } }), 429, 'limit_resolution');
  await env.accounts.trust(limited.id);
  assert.is((await post(env, limited.key, 'res', { body: { max_resolution: 1080 } })).status, 201);

  const invalid = await env.newAccount();
  assertError(await post(env, invalid.key, 'bad', { body: { colour: 1 } }), 400, 'invalid_request');
  assert.is((await post(env, invalid.key, 'bad', { body: {} })).status, 201);
});

t('replays are sealed: the stored record does not hold the stream key in the clear', async ({ env }) => {
  const { key } = await env.newAccount();
  const res = await post(env, key, 'sealed');
  const secret = String(res.body.stream_key).split('?key=')[1] ?? '';
  const rows = await env.db.sql<
    { response_sealed: Buffer }[]
  >`select response_sealed from idempotency_keys where key = 'sealed'`;
  assert.is(rows.length, 1);
  assert.not.ok(rows[0]?.response_sealed.toString('latin1').includes(secret));
});

t('expired records are purged', async ({ env }) => {
  const { key } = await env.newAccount();
  await post(env, key, 'purge-me');
  env.clock.advance(24 * 3600 + 1);
  assert.ok((await env.api.idempotency.purge()) >= 1);
  const rows = await env.db.sql`select 1 from idempotency_keys where key = 'purge-me'`;
  assert.is(rows.length, 0);
});

t.run();
