import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import { WebhookDispatcher } from '../../src/domains/back-office/webhooks/dispatcher.worker.js';
import { EVENT_TYPES } from '../../src/domains/ledger/events/outbox.js';
import { systemLookup } from '../../src/domains/back-office/webhooks/ssrf.js';
import { assertError, assertInvalidField, without } from '../helpers/streams.js';
import { createEndpoint, deliveriesOf, emit, webhookSuite } from '../helpers/webhooks.js';

const t = webhookSuite('webhooks: endpoints API');

const ENDPOINT_KEYS = ['all_events', 'created_at', 'description', 'enabled', 'events', 'id', 'object', 'url'];

t('create: 201 with the secret; events omitted means every type, also later ones', async (ctx) => {
  const { env } = ctx;
  const { key } = await env.newAccount();
  const res = await env.call('POST', '/v1/webhooks', {
    key,
    body: { url: 'https://hooks.example.com/svc', description: 'Production' },
  });
  assert.is(res.status, 201, res.text);
  const e = res.body;
  assert.equal(Object.keys(e).sort(), [...ENDPOINT_KEYS, 'secret'].sort());
  assert.is(e.object, 'webhook_endpoint');
  assert.match(e.id, /^whk_[a-z0-9]{20}$/);
  assert.match(e.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.is(Buffer.from(e.secret.slice(6), 'base64').length, 32);
  assert.equal(e.events, [...EVENT_TYPES]);
  assert.is(e.all_events, true);
  assert.is(e.enabled, true);
  assert.is(e.description, 'Production');
  assert.is(e.url, 'https://hooks.example.com/svc');
  assert.is(e.created_at, env.clock.now().toISOString());

  const sub = await env.call('POST', '/v1/webhooks', {
    key,
    body: { url: 'https://hooks.example.com/b', events: ['recording.ready', 'stream.live', 'stream.live'] },
  });
  assert.is(sub.status, 201, sub.text);
  assert.equal(sub.body.events, ['recording.ready', 'stream.live'], 'duplicates dropped, order kept');
  assert.is(sub.body.all_events, false);
  assert.is(sub.body.description, null);
});

t('list: without secrets, oldest first, with event_types; get: with the secret', async (ctx) => {
  const { env } = ctx;
  const { key } = await env.newAccount();
  const a = await createEndpoint(ctx, { url: 'https://a.example.com/' }, key);
  const b = await createEndpoint(ctx, { url: 'https://b.example.com/', events: ['stream.ended'] }, key);
  const list = await env.call('GET', '/v1/webhooks', { key });
  assert.is(list.status, 200);
  assert.equal(Object.keys(list.body).sort(), ['data', 'event_types', 'has_more', 'object']);
  assert.is(list.body.object, 'list');
  assert.is(list.body.has_more, false);
  assert.equal(list.body.event_types, [
    'stream.live',
    'stream.ended',
    'stream.expired',
    'stream.cancelled',
    'recording.ready',
    'recording.failed',
    'recording.deleted',
    'credit.low',
    'credit.depleted',
    'balance.low',
    'balance.depleted',
    'output.connected',
    'output.errored',
    'output.disconnected',
  ]);
  assert.equal(
    list.body.data.map((e: { id: string }) => e.id),
    [a.id, b.id],
  );
  for (const e of list.body.data) assert.equal(Object.keys(e).sort(), ENDPOINT_KEYS);
  const got = await env.call('GET', `/v1/webhooks/${b.id}`, { key });
  assert.is(got.status, 200);
  assert.is(got.body.secret, b.secret);
  assert.equal(got.body.events, ['stream.ended']);
});

t('create refuses unknown fields, bad types, long url and description, unknown event types', async (ctx) => {
  const { env, key } = ctx;
  assertInvalidField(
    await env.call('POST', '/v1/webhooks', { key, body: { url: 'https://x.example.com/', colour: 'red' } }),
    'colour',
  );
  assertInvalidField(await env.call('POST', '/v1/webhooks', { key, body: {} }), 'url');
  assertInvalidField(
    await env.call('POST', '/v1/webhooks', { key, body: { url: `https://x.example.com/${'a'.repeat(1980)}` } }),
    'url',
  );
  assert.is(
    (await env.call('POST', '/v1/webhooks', { key, body: { url: `https://x.example.com/${'a'.repeat(1976)}` } }))
      .status,
    201,
    '2000 characters are fine',
  );
  assertInvalidField(
    await env.call('POST', '/v1/webhooks', {
      key,
      body: { url: 'https://x.example.com/', description: 'd'.repeat(201) },
    }),
    'description',
  );
  assertInvalidField(
    await env.call('POST', '/v1/webhooks', {
      key,
      body: { url: 'https://x.example.com/', events: ['stream.started'] },
    }),
    'events.0',
  );
  assertInvalidField(
    await env.call('POST', '/v1/webhooks', { key, body: { url: 'https://x.example.com/', events: [] } }),
    'events',
  );
  assertInvalidField(await env.call('POST', '/v1/webhooks', { key, body: { url: 'not a url' } }), 'url');
  assertInvalidField(await env.call('POST', '/v1/webhooks', { key, body: { url: 'ftp://x.example.com/' } }), 'url');
  assertInvalidField(
    await env.call('POST', '/v1/webhooks', { key, body: { url: 'https://user:pw@x.example.com/' } }),
    'url',
  );
  assertError(await env.call('POST', '/v1/webhooks', { body: { url: 'https://x.example.com/' } }), 401, 'unauthorized');
});

t('429 limit_webhook_endpoints at 5; deleting one frees a place', async (ctx) => {
  const { env } = ctx;
  const { key } = await env.newAccount();
  const made = [];
  for (let i = 0; i < 5; i++) made.push(await createEndpoint(ctx, { url: `https://h${i}.example.com/` }, key));
  const res = await env.call('POST', '/v1/webhooks', { key, body: { url: 'https://h5.example.com/' } });
  assertError(res, 429, 'limit_webhook_endpoints');
  assert.equal(res.body.error.details, { limit: 5, current: 5 });
  assert.is(res.headers['retry-after'], undefined, 'waiting does not fix it');
  assert.is((await env.call('DELETE', `/v1/webhooks/${made[0]?.id}`, { key })).status, 204);
  await createEndpoint(ctx, { url: 'https://h5.example.com/' }, key);
});

t('concurrent creations cannot pass the limit together', async (ctx) => {
  const { env } = ctx;
  const { key } = await env.newAccount();
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      env.call('POST', '/v1/webhooks', { key, body: { url: `https://c${i}.example.com/` } }),
    ),
  );
  assert.is(results.filter((r) => r.status === 201).length, 5);
  assert.is(results.filter((r) => r.status === 429).length, 7);
});

t('patch: fields left out stay; events null is every type; validation; 404', async (ctx) => {
  const { env, key } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://p.example.com/', events: ['stream.live'], description: 'x' });
  const res = await env.call('PATCH', `/v1/webhooks/${e.id}`, {
    key,
    body: { description: null, url: 'https://p2.example.com/hook' },
  });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.description, null);
  assert.is(res.body.url, 'https://p2.example.com/hook');
  assert.equal(res.body.events, ['stream.live']);
  // The secret is shown on create, single read and rotation only (spec, WebhookEndpoint).
  assert.equal(Object.keys(res.body).sort(), ENDPOINT_KEYS);
  const all = await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { events: null } });
  assert.is(all.body.all_events, true);
  assert.equal(all.body.events, [...EVENT_TYPES]);
  const some = await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { events: ['recording.failed'] } });
  assert.equal([some.body.all_events, some.body.events], [false, ['recording.failed']]);
  assertError(await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: {} }), 400, 'invalid_request');
  assertInvalidField(await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { secret: 'whsec_x' } }), 'secret');
  assertInvalidField(await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { enabled: 'false' } }), 'enabled');
  assertError(
    await env.call('PATCH', '/v1/webhooks/whk_00000000000000000000', { key, body: { enabled: false } }),
    404,
    'not_found',
  );
});

t('another account sees none of it: 404 everywhere', async (ctx) => {
  const { env } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://mine.example.com/' });
  const { key: other } = await env.newAccount();
  assert.equal((await env.call('GET', '/v1/webhooks', { key: other })).body.data, []);
  for (const [method, path, body] of [
    ['GET', `/v1/webhooks/${e.id}`],
    ['PATCH', `/v1/webhooks/${e.id}`, { enabled: false }],
    ['DELETE', `/v1/webhooks/${e.id}`],
    ['POST', `/v1/webhooks/${e.id}/secret`],
    ['POST', `/v1/webhooks/${e.id}/test`],
    ['GET', `/v1/webhooks/${e.id}/deliveries`],
    ['POST', `/v1/webhooks/${e.id}/deliveries/dlv_00000000000000000000/retry`],
    ['GET', '/v1/webhooks/not-an-id'],
    ['GET', '/v1/webhooks/whk_%00'],
  ] as const) {
    assertError(await env.call(method, path, { key: other, body }), 404, 'not_found');
  }
  assert.is((await env.call('GET', `/v1/webhooks/${e.id}`, { key: ctx.key })).status, 200, 'still there');
});

t('rotate: a new secret, shown by get; the old one is kept for 24 hours', async (ctx) => {
  const { env, key } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://r.example.com/' });
  const res = await env.call('POST', `/v1/webhooks/${e.id}/secret`, { key });
  assert.is(res.status, 200, res.text);
  assert.match(res.body.secret, /^whsec_/);
  assert.is.not(res.body.secret, e.secret);
  assert.is((await env.call('GET', `/v1/webhooks/${e.id}`, { key })).body.secret, res.body.secret);
  const [row] = await env.db.sql<
    { previous_secret: string; previous_secret_expires_at: Date }[]
  >`select previous_secret, previous_secret_expires_at from webhook_endpoints where id = ${e.id}`;
  assert.is(row?.previous_secret, e.secret);
  assert.is(row?.previous_secret_expires_at.getTime(), env.clock.now().getTime() + 24 * 3600_000);
});

t(
  'events accepts webhook.test (spec: the event types plus webhook.test); it changes nothing: stream events still go by the other types, tests always',
  async (ctx) => {
    const { env, key } = ctx;
    const only = await createEndpoint(ctx, { url: 'https://only-tests.example.com/', events: ['webhook.test'] });
    assert.equal([only.events, only.all_events], [['webhook.test'], false]);
    const both = await createEndpoint(ctx, {
      url: 'https://both.example.com/',
      events: ['stream.live', 'webhook.test'],
    });
    const patched = await env.call('PATCH', `/v1/webhooks/${both.id}`, {
      key,
      body: { events: ['webhook.test', 'stream.ended'] },
    });
    assert.equal(patched.body.events, ['webhook.test', 'stream.ended']);
    const list = (await env.call('GET', '/v1/webhooks', { key })).body;
    assert.not.ok(list.event_types.includes('webhook.test'), 'event_types: the types the service sends to subscribers');
    await emit(ctx, 'stream.cancelled');
    await emit(ctx, 'stream.ended');
    const dispatcher = new WebhookDispatcher({
      sql: env.db.sql,
      clock: env.clock,
      logger: createLogger('silent'),
      policy: { allowPrivate: true, lookup: systemLookup },
    });
    await dispatcher.fanOut();
    assert.is(
      (await deliveriesOf(ctx, only.id)).length,
      0,
      'no stream event for an endpoint listing only webhook.test',
    );
    assert.equal(
      (await deliveriesOf(ctx, both.id)).map((d) => d.event_type),
      ['stream.ended'],
    );
    assert.is((await env.call('POST', `/v1/webhooks/${only.id}/test`, { key })).status, 202);
    assert.equal(
      (await deliveriesOf(ctx, only.id)).map((d) => d.event_type),
      ['webhook.test'],
    );
  },
);

t('test: 202 with a pending webhook.test delivery whose data is the endpoint', async (ctx) => {
  const { env, key } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://t.example.com/', events: ['stream.live'] });
  const res = await env.call('POST', `/v1/webhooks/${e.id}/test`, { key });
  assert.is(res.status, 202, res.text);
  const d = res.body;
  assert.equal(Object.keys(d).sort(), [
    'attempts',
    'created_at',
    'delivered_at',
    'event_id',
    'event_type',
    'id',
    'last_attempt_at',
    'last_duration_ms',
    'last_error',
    'last_status_code',
    'max_attempts',
    'next_attempt_at',
    'object',
    'payload',
    'status',
    'stream_id',
  ]);
  assert.is(d.object, 'webhook_delivery');
  assert.match(d.id, /^dlv_[a-z0-9]{20}$/);
  assert.match(d.event_id, /^evt_[a-z0-9]{20}$/);
  assert.equal(
    [d.event_type, d.status, d.attempts, d.max_attempts, d.stream_id],
    ['webhook.test', 'pending', 0, 11, null],
  );
  assert.is(d.next_attempt_at, env.clock.now().toISOString());
  assert.equal(Object.keys(d.payload).sort(), ['data', 'timestamp', 'type']);
  assert.is(d.payload.type, 'webhook.test');
  assert.equal(d.payload.data, without(e, 'secret'), 'the endpoint, without its secret');
  const [event] = await env.db.sql`select type, account_id from events where id = ${d.event_id}`;
  assert.equal({ ...event }, { type: 'webhook.test', account_id: ctx.accountId }, 'the event is in the outbox too');
});

t('deliveries: newest first, limit, status, starting_after; retry: 404 for succeeded and unknown ones', async (ctx) => {
  const { env, key } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://d.example.com/' });
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push((await env.call('POST', `/v1/webhooks/${e.id}/test`, { key })).body.id);
    env.clock.advance(1);
  }
  await env.db
    .sql`update webhook_deliveries set status = 'succeeded', next_attempt_at = null, attempts = 1 where id = ${ids[1] as string}`;
  const all = await env.call('GET', `/v1/webhooks/${e.id}/deliveries`, { key });
  assert.is(all.status, 200, all.text);
  assert.equal(
    all.body.data.map((d: { id: string }) => d.id),
    [...ids].reverse(),
  );
  assert.is(all.body.has_more, false);
  const page = await env.call('GET', `/v1/webhooks/${e.id}/deliveries?limit=2`, { key });
  assert.equal([page.body.data.length, page.body.has_more], [2, true]);
  const next = await env.call('GET', `/v1/webhooks/${e.id}/deliveries?limit=2&starting_after=${page.body.data[1].id}`, {
    key,
  });
  assert.equal(
    next.body.data.map((d: { id: string }) => d.id),
    [ids[2], ids[1]],
  );
  const succeeded = await env.call('GET', `/v1/webhooks/${e.id}/deliveries?status=succeeded`, { key });
  assert.equal(
    succeeded.body.data.map((d: { id: string }) => d.id),
    [ids[1]],
  );
  assert.is(succeeded.body.data[0].next_attempt_at, null);
  assertInvalidField(await env.call('GET', `/v1/webhooks/${e.id}/deliveries?status=done`, { key }), 'status');
  assertInvalidField(await env.call('GET', `/v1/webhooks/${e.id}/deliveries?limit=101`, { key }), 'limit');
  assertInvalidField(
    await env.call('GET', `/v1/webhooks/${e.id}/deliveries?starting_after=dlv_00000000000000000000`, { key }),
    'starting_after',
  );
  assertError(await env.call('POST', `/v1/webhooks/${e.id}/deliveries/${ids[1]}/retry`, { key }), 404, 'not_found');
  assertError(
    await env.call('POST', `/v1/webhooks/${e.id}/deliveries/dlv_00000000000000000000/retry`, { key }),
    404,
    'not_found',
  );
  const other = await createEndpoint(ctx, { url: 'https://d2.example.com/' });
  assertError(await env.call('POST', `/v1/webhooks/${other.id}/deliveries/${ids[0]}/retry`, { key }), 404, 'not_found');
});

t('retry: a failed delivery gets one more attempt now; a pending one is brought forward', async (ctx) => {
  const { env, key } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://rt.example.com/' });
  const failed = (await env.call('POST', `/v1/webhooks/${e.id}/test`, { key })).body;
  await env.db
    .sql`update webhook_deliveries set status = 'failed', attempts = 11, next_attempt_at = null, last_error = 'receiver answered 500' where id = ${failed.id}`;
  env.clock.advance(60);
  const res = await env.call('POST', `/v1/webhooks/${e.id}/deliveries/${failed.id}/retry`, { key });
  assert.is(res.status, 202, res.text);
  assert.equal(
    [res.body.status, res.body.attempts, res.body.max_attempts, res.body.next_attempt_at],
    ['pending', 11, 12, env.clock.now().toISOString()],
  );
  const pending = (await env.call('POST', `/v1/webhooks/${e.id}/test`, { key })).body;
  await env.db
    .sql`update webhook_deliveries set attempts = 2, next_attempt_at = ${new Date(env.clock.now().getTime() + 120_000)} where id = ${pending.id}`;
  const forward = await env.call('POST', `/v1/webhooks/${e.id}/deliveries/${pending.id}/retry`, { key });
  assert.equal(
    [forward.body.status, forward.body.attempts, forward.body.max_attempts, forward.body.next_attempt_at],
    ['pending', 2, 11, env.clock.now().toISOString()],
  );
});

t('disabling fails the queued deliveries; delete takes the log with it', async (ctx) => {
  const { env, key } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://x.example.com/' });
  const d = (await env.call('POST', `/v1/webhooks/${e.id}/test`, { key })).body;
  const res = await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { enabled: false } });
  assert.is(res.body.enabled, false);
  const list = (await env.call('GET', `/v1/webhooks/${e.id}/deliveries`, { key })).body.data;
  assert.equal(
    [list[0].id, list[0].status, list[0].last_error, list[0].next_attempt_at],
    [d.id, 'failed', 'endpoint disabled', null],
  );
  const whileDisabled = await env.call('POST', `/v1/webhooks/${e.id}/test`, { key });
  assert.equal(
    [whileDisabled.status, whileDisabled.body.status, whileDisabled.body.last_error],
    [202, 'failed', 'endpoint disabled'],
  );

  assert.is((await env.call('DELETE', `/v1/webhooks/${e.id}`, { key })).status, 204);
  assert.is((await deliveriesOf(ctx, e.id)).length, 0);
  assertError(await env.call('GET', `/v1/webhooks/${e.id}`, { key }), 404, 'not_found');
  assertError(await env.call('DELETE', `/v1/webhooks/${e.id}`, { key }), 404, 'not_found');
});

t('deliveries older than 30 days are purged with their attempts', async (ctx) => {
  const { env, key } = ctx;
  const e = await createEndpoint(ctx, { url: 'https://old.example.com/' });
  const old = (await env.call('POST', `/v1/webhooks/${e.id}/test`, { key })).body;
  await env.db
    .sql`insert into webhook_attempts (delivery_id, attempt, started_at, status_code, duration_ms) values (${old.id}, 1, ${env.clock.now()}, 500, 3)`;
  env.clock.advance(29 * 86400);
  const recent = (await env.call('POST', `/v1/webhooks/${e.id}/test`, { key })).body;
  assert.is(await env.api.webhooks.purgeDeliveries(), 0);
  env.clock.advance(86400 + 1);
  assert.ok((await env.api.webhooks.purgeDeliveries()) >= 1);
  const left = (await env.call('GET', `/v1/webhooks/${e.id}/deliveries`, { key })).body.data.map(
    (d: { id: string }) => d.id,
  );
  assert.equal(left, [recent.id]);
  assert.is((await env.db.sql`select 1 from webhook_attempts where delivery_id = ${old.id}`).length, 0);
});

t('fan-out: one delivery per subscribed, enabled endpoint of the event account', async (ctx) => {
  const { env } = ctx;
  const { id: accountId, key } = await env.newAccount();
  const all = await createEndpoint(ctx, { url: 'https://all.example.com/' }, key);
  const live = await createEndpoint(ctx, { url: 'https://live.example.com/', events: ['stream.live'] }, key);
  const cancelled = await createEndpoint(
    ctx,
    { url: 'https://c.example.com/', events: ['stream.cancelled', 'stream.live'] },
    key,
  );
  const off = await createEndpoint(ctx, { url: 'https://off.example.com/' }, key);
  await env.call('PATCH', `/v1/webhooks/${off.id}`, { key, body: { enabled: false } });
  const stranger = await createEndpoint(ctx, { url: 'https://stranger.example.com/' });
  const event = await emit(ctx, 'stream.cancelled', accountId);
  const dispatcher = new WebhookDispatcher({
    sql: env.db.sql,
    clock: env.clock,
    logger: createLogger('silent'),
    policy: { allowPrivate: true, lookup: systemLookup },
  });
  assert.ok((await dispatcher.fanOut()) >= 1);
  assert.is(await dispatcher.fanOut(), 0, 'each event once');
  const counts = await Promise.all(
    [all, live, cancelled, off, stranger].map(
      async (e) => (await deliveriesOf(ctx, e.id)).filter((d) => d.event_id === event.id).length,
    ),
  );
  assert.equal(counts, [1, 0, 1, 0, 0]);
  const [d] = (await deliveriesOf(ctx, all.id)).filter((x) => x.event_id === event.id);
  assert.equal(
    [d?.event_type, d?.stream_id, d?.status, d?.max_attempts],
    ['stream.cancelled', 'str_00000000000000000000', 'pending', 11],
  );
  assert.equal(d?.payload, event.payload);
});

t.run();
