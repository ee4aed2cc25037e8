import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertError, createStream } from '../helpers/streams.js';

const t = suite<{ env: TestApi }>('streams: limits');
t.before(async (ctx) => {
  ctx.env = await createTestApi(); // the default limits: new 2 pending, 10 per hour, 720; trusted 20, 100, 1080
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t(
  'credit below 1.00 USD refuses creation with 402; 1.00 is enough; postpaid with no credit is not refused',
  async ({ env }) => {
    const poor = await env.newAccount({ credit: '0.99' });
    assertError(await env.call('POST', '/v1/streams', { key: poor.key, body: {} }), 402, 'insufficient_credit');
    assertError(
      await env.call('POST', '/v1/streams', { key: (await env.newAccount({ credit: '0' })).key }),
      402,
      'insufficient_credit',
    );
    await createStream(env, (await env.newAccount({ credit: '1.00' })).key);
    await createStream(env, (await env.newAccount({ credit: '0', postpaid: true })).key);
    // Credit added later: creation works (nothing about the refusal was kept).
    await env.accounts.addCredit(poor.id, '0.01');
    await createStream(env, poor.key);
  },
);

t(
  '429 limit_pending_streams at 2 waiting streams, with limit and current and no Retry-After; a cancel frees a slot',
  async ({ env }) => {
    const { key } = await env.newAccount();
    const a = await createStream(env, key);
    await createStream(env, key);
    const res = await env.call('POST', '/v1/streams', { key, body: {} });
    assertError(res, 429, 'limit_pending_streams');
    assert.is(res.body.error.details.limit, 2);
    assert.is(res.body.error.details.current, 2);
    assert.is(res.body.error.details.retry_after_seconds, undefined);
    assert.is(res.headers['retry-after'], undefined);
    assert.is((await env.call('DELETE', `/v1/streams/${a.id}`, { key })).body.status, 'cancelled');
    await createStream(env, key);
  },
);

t('trusted accounts may keep 20 streams waiting', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  for (let i = 0; i < 20; i++) await createStream(env, key);
  const res = await env.call('POST', '/v1/streams', { key });
  assertError(res, 429, 'limit_pending_streams');
  assert.equal(
    { limit: res.body.error.details.limit, current: res.body.error.details.current },
    { limit: 20, current: 20 },
  );
});

t('concurrent creations cannot pass the pending limit together', async ({ env }) => {
  const { key } = await env.newAccount();
  const results = await Promise.all(
    Array.from({ length: 6 }, () => env.call('POST', '/v1/streams', { key, body: {} })),
  );
  assert.equal(results.map((r) => r.status).sort(), [201, 201, 429, 429, 429, 429]);
  for (const r of results.filter((x) => x.status === 429)) assertError(r, 429, 'limit_pending_streams');
});

t(
  '429 limit_creation_rate after 10 in an hour, Retry-After equal to details.retry_after_seconds, lifted when the hour has passed',
  async ({ env }) => {
    const { key } = await env.newAccount();
    const first = env.clock.now();
    for (let i = 0; i < 10; i++) {
      const s = await createStream(env, key);
      await env.call('DELETE', `/v1/streams/${s.id}`, { key }); // stay under the pending limit
      env.clock.advance(60);
    }
    // Ten created between t and t+540 s; now is t+600 s: the oldest leaves the hour at t+3600 s.
    const res = await env.call('POST', '/v1/streams', { key, body: {} });
    assertError(res, 429, 'limit_creation_rate');
    assert.is(res.body.error.details.retry_after_seconds, 3000);
    assert.is(res.headers['retry-after'], '3000');
    assert.is(res.body.error.details.limit, 10);
    assert.is(res.body.error.details.current, 10);

    env.clock.advance(2999);
    const later = await env.call('POST', '/v1/streams', { key });
    assertError(later, 429, 'limit_creation_rate');
    assert.is(later.headers['retry-after'], String(later.body.error.details.retry_after_seconds));
    assert.is(later.body.error.details.retry_after_seconds, 1);

    env.clock.advance(1);
    assert.is(env.clock.now().getTime() - first.getTime(), 3600_000);
    await createStream(env, key);
    // The next one is refused again: the second creation (t+60 s) is still inside the hour.
    const again = await env.call('POST', '/v1/streams', { key });
    assertError(again, 429, 'limit_creation_rate');
    assert.is(again.body.error.details.retry_after_seconds, 60);
    env.clock.advance(3600);
    await createStream(env, key);
  },
);

t('429 limit_resolution for 1080 on a new account; a trusted account may', async ({ env }) => {
  const { key } = await env.newAccount();
  const res = await env.call('POST', '/v1/streams', { key, body: { max_resolution: 1080 } });
  assertError(res, 429, 'limit_resolution');
  assert.is(res.body.error.details.limit, 720);
  assert.is(res.headers['retry-after'], undefined);
  await createStream(env, key, { max_resolution: 720 });
  const trusted = await env.newAccount({ trusted: true });
  assert.is((await createStream(env, trusted.key, { max_resolution: 1080 })).max_ingest_resolution, 1080);
});

t('limits configured per appliance apply', async () => {
  const env = await createTestApi({ limits: { new: { pending_streams: 1, max_resolution: 480 } } });
  try {
    const { key } = await env.newAccount();
    assertError(await env.call('POST', '/v1/streams', { key, body: { max_resolution: 720 } }), 429, 'limit_resolution');
    await createStream(env, key, { max_resolution: 480 });
    const res = await env.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } });
    assertError(res, 429, 'limit_pending_streams');
    assert.is(res.body.error.details.limit, 1);
  } finally {
    await env.close();
  }
});

t.run();
