import * as assert from 'uvu/assert';
import { Webhook } from 'standardwebhooks';
import { createStream } from '../helpers/streams.js';
import { verifies } from '../helpers/receiver.js';
import {
  attemptsOf,
  createEndpoint,
  deliveriesOf,
  deliveryReaches,
  emit,
  firstDelivery,
  startDispatcher,
  webhookSuite,
} from '../helpers/webhooks.js';

const t = webhookSuite('webhooks: delivery to a real receiver (verified with standardwebhooks)');

const nowSeconds = () => Math.floor(Date.now() / 1000);

t(
  'a stream event arrives signed: standardwebhooks verifies it; webhook-id is the event id; body is the WebhookEvent',
  async (ctx) => {
    const { env, key, receiver } = ctx;
    const e = await createEndpoint(ctx, { url: receiver.url('/signed') });
    receiver.expectSecrets('/signed', e.secret);
    await startDispatcher(ctx);
    const stream = await createStream(env, key, { name: 'Town hall' });
    const cancelled = (await env.call('DELETE', `/v1/streams/${stream.id}`, { key })).body;
    const [req] = await receiver.waitFor('/signed', 1);
    assert.ok(req);
    assert.equal(req.verified, { [e.secret]: true }, req.verifyError ?? '');
    const [event] = await env.db.sql<
      { id: string; payload: unknown }[]
    >`select id, payload from events where stream_id = ${stream.id}`;
    assert.is(req.headers['webhook-id'], event?.id);
    assert.match(String(req.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.ok(Math.abs(Number(req.headers['webhook-timestamp']) - nowSeconds()) <= 5, 'Unix seconds of the attempt');
    assert.match(String(req.headers['content-type']), /^application\/json/);
    const body = JSON.parse(req.body);
    assert.equal(Object.keys(body), ['type', 'timestamp', 'data']);
    assert.equal(body, event?.payload);
    assert.is(body.type, 'stream.cancelled');
    assert.equal([body.data.id, body.data.status, body.data.name], [stream.id, 'cancelled', 'Town hall']);
    assert.is(body.data.ended_at, cancelled.ended_at);
    assert.ok(!verifies(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, req), 'another secret does not verify');
    const tampered = { ...req, body: req.body.replace('cancelled', 'ended') };
    assert.ok(!verifies(e.secret, tampered), 'a changed body does not verify');

    const [d] = await deliveriesOf(ctx, e.id);
    const done = await deliveryReaches(ctx, d!.id, 'succeeded', 1);
    assert.equal([done.last_status_code, done.last_error, done.next_attempt_at], [200, null, null]);
    assert.ok(done.delivered_at && done.last_attempt_at);
    assert.type(done.last_duration_ms, 'number');
    const listed = (await env.call('GET', `/v1/webhooks/${e.id}/deliveries`, { key })).body.data[0];
    assert.equal(
      [listed.status, listed.attempts, listed.last_status_code, listed.event_id, listed.stream_id],
      ['succeeded', 1, 200, event?.id, stream.id],
    );
  },
);

t('during a rotation both secrets verify (two signatures); after 24 hours only the new one signs', async (ctx) => {
  const { env, key, receiver } = ctx;
  const e = await createEndpoint(ctx, { url: receiver.url('/rotate') });
  const rotated = (await env.call('POST', `/v1/webhooks/${e.id}/secret`, { key })).body;
  receiver.expectSecrets('/rotate', rotated.secret, e.secret);
  await startDispatcher(ctx);
  await env.call('POST', `/v1/webhooks/${e.id}/test`, { key });
  const [req] = await receiver.waitFor('/rotate', 1);
  assert.equal(req?.verified, { [rotated.secret]: true, [e.secret]: true }, 'each secret alone verifies');
  const signatures = String(req?.headers['webhook-signature']).split(' ');
  assert.is(signatures.length, 2);
  for (const s of signatures) assert.match(s, /^v1,/);

  // A day later: the receiver's clock moves too, so the expected signature comes from standardwebhooks' own sign().
  env.clock.advance(24 * 3600 + 1);
  await env.call('POST', `/v1/webhooks/${e.id}/test`, { key });
  const second = (await receiver.waitFor('/rotate', 2))[1]!;
  const header = String(second.headers['webhook-signature']);
  const at = new Date(Number(second.headers['webhook-timestamp']) * 1000);
  assert.is(header, new Webhook(rotated.secret).sign(String(second.headers['webhook-id']), at, second.body));
  assert.is.not(header, new Webhook(e.secret).sign(String(second.headers['webhook-id']), at, second.body));
});

t('receiver answers 500 then 200: one event, two attempts 5 s apart, the same webhook-id', async (ctx) => {
  const { env, key, receiver } = ctx;
  const e = await createEndpoint(ctx, { url: receiver.url('/flaky') });
  receiver.expectSecrets('/flaky', e.secret);
  receiver.script('/flaky', { status: 500 }, { status: 200 });
  await startDispatcher(ctx);
  const event = await emit(ctx);
  await receiver.waitFor('/flaky', 1);
  const [d] = await deliveriesOf(ctx, e.id);
  const pending = await deliveryReaches(ctx, d!.id, 'pending', 1);
  assert.equal([pending.last_status_code, pending.last_error], [500, 'receiver answered 500']);
  assert.is(pending.next_attempt_at!.getTime() - pending.last_attempt_at!.getTime(), 5000);
  const listed = (await env.call('GET', `/v1/webhooks/${e.id}/deliveries?status=pending`, { key })).body.data[0];
  assert.equal([listed.attempts, listed.last_status_code, listed.last_error], [1, 500, 'receiver answered 500']);

  await new Promise((r) => setTimeout(r, 200));
  assert.is(receiver.on('/flaky').length, 1, 'nothing before the 5 s are up');
  env.clock.advance(5);
  const reqs = await receiver.waitFor('/flaky', 2);
  const done = await deliveryReaches(ctx, d!.id, 'succeeded', 2);
  assert.equal(
    reqs.map((r) => r.headers['webhook-id']),
    [event.id, event.id],
  );
  assert.ok(
    reqs.every((r) => r.verified[e.secret]),
    'both verify',
  );
  assert.is(reqs[0]?.body, reqs[1]?.body, 'the same body');
  assert.equal(
    (await attemptsOf(ctx, d!.id)).map((a) => [a.attempt, a.status_code]),
    [
      [1, 500],
      [2, 200],
    ],
  );
  assert.equal([done.last_status_code, done.last_error], [200, null]);
  assert.is((await deliveriesOf(ctx, e.id)).length, 1, 'one delivery');
});

t(
  'the schedule: retries after 5 s, 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h, then failed after 11 attempts',
  async (ctx) => {
    const { env, receiver } = ctx;
    const e = await createEndpoint(ctx, { url: receiver.url('/down') });
    receiver.script('/down', ...Array.from({ length: 20 }, () => ({ status: 503 })));
    await startDispatcher(ctx);
    await emit(ctx);
    const d = await firstDelivery(ctx, e.id);
    const gaps: number[] = [];
    for (let n = 1; n <= 10; n++) {
      const row = await deliveryReaches(ctx, d.id, 'pending', n);
      const gap = (row.next_attempt_at!.getTime() - row.last_attempt_at!.getTime()) / 1000;
      gaps.push(gap);
      env.clock.advance(gap - 1);
      await new Promise((r) => setTimeout(r, 120));
      assert.is(receiver.on('/down').length, n, `attempt ${n + 1} waits its full ${gap} s`);
      env.clock.advance(1);
    }
    assert.equal(gaps, [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800]);
    const failed = await deliveryReaches(ctx, d.id, 'failed', 11);
    assert.equal([failed.max_attempts, failed.next_attempt_at, failed.last_status_code], [11, null, 503]);
    env.clock.advance(86400);
    await new Promise((r) => setTimeout(r, 150));
    assert.is(receiver.on('/down').length, 11, 'nothing after the last attempt');
  },
);

t('a receiver slower than the timeout: recorded as a failed attempt, then retried', async (ctx) => {
  const { env, receiver } = ctx;
  const e = await createEndpoint(ctx, { url: receiver.url('/slow') });
  receiver.expectSecrets('/slow', e.secret);
  receiver.script('/slow', { status: 200, delayMs: 1500 }, { status: 200 });
  await startDispatcher(ctx, { timeoutMs: 500 });
  await emit(ctx);
  await receiver.waitFor('/slow', 1);
  const [d] = await deliveriesOf(ctx, e.id);
  const first = await deliveryReaches(ctx, d!.id, 'pending', 1);
  assert.equal([first.last_status_code, first.last_error], [null, 'timed out after 0.5 s']);
  assert.ok(first.last_duration_ms! >= 490 && first.last_duration_ms! < 1500, `${first.last_duration_ms} ms`);
  env.clock.advance(5);
  await deliveryReaches(ctx, d!.id, 'succeeded', 2);
  assert.ok(receiver.on('/slow').every((r) => r.verified[e.secret]));
});

t('with the real 10 s limit: an answer after 10.5 s is a failure and the event is retried', async (ctx) => {
  const { env, receiver } = ctx;
  const e = await createEndpoint(ctx, { url: receiver.url('/slow10') });
  receiver.script('/slow10', { status: 200, delayMs: 10_500 }, { status: 204 });
  await startDispatcher(ctx);
  await emit(ctx);
  const d = await firstDelivery(ctx, e.id);
  const first = await deliveryReaches(ctx, d.id, 'pending', 1, 13_000);
  assert.equal([first.last_status_code, first.last_error], [null, 'timed out after 10 s']);
  // Timers may fire a millisecond early against the monotonic clock the duration is read from.
  assert.ok(first.last_duration_ms! >= 9_990 && first.last_duration_ms! < 10_500, `${first.last_duration_ms} ms`);
  env.clock.advance(5);
  const done = await deliveryReaches(ctx, d.id, 'succeeded', 2);
  assert.is(done.last_status_code, 204, 'any 2xx');
});

t('a redirect is a failure, recorded and not followed', async (ctx) => {
  const { receiver } = ctx;
  const e = await createEndpoint(ctx, { url: receiver.url('/moved') });
  receiver.script(
    '/moved',
    { status: 301, headers: { location: receiver.url('/elsewhere') } },
    { status: 307, headers: { location: '/elsewhere' } },
  );
  await startDispatcher(ctx);
  await emit(ctx);
  await receiver.waitFor('/moved', 1);
  const [d] = await deliveriesOf(ctx, e.id);
  const row = await deliveryReaches(ctx, d!.id, 'pending', 1);
  assert.is(row.last_status_code, 301);
  assert.is(row.last_error, `redirect 301 to ${receiver.url('/elsewhere')} not followed`);
  await new Promise((r) => setTimeout(r, 200));
  assert.is(receiver.on('/elsewhere').length, 0, 'not followed');
});

t(
  'disabled endpoint: the queued delivery fails and is not sent again; nothing new is queued; retry after re-enabling sends it',
  async (ctx) => {
    const { env, key, receiver } = ctx;
    const e = await createEndpoint(ctx, { url: receiver.url('/disabled') });
    receiver.script('/disabled', { status: 500 });
    await startDispatcher(ctx);
    await emit(ctx);
    await receiver.waitFor('/disabled', 1);
    const [d] = await deliveriesOf(ctx, e.id);
    await deliveryReaches(ctx, d!.id, 'pending', 1);
    await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { enabled: false } });
    const failed = (await env.call('GET', `/v1/webhooks/${e.id}/deliveries`, { key })).body.data[0];
    assert.equal(
      [failed.status, failed.last_error, failed.next_attempt_at, failed.attempts],
      ['failed', 'endpoint disabled', null, 1],
    );
    await emit(ctx);
    env.clock.advance(60);
    await new Promise((r) => setTimeout(r, 200));
    assert.is(receiver.on('/disabled').length, 1, 'nothing sent while disabled');
    assert.is((await deliveriesOf(ctx, e.id)).length, 1, 'no delivery for an event while disabled');

    await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { enabled: true } });
    const retried = await env.call('POST', `/v1/webhooks/${e.id}/deliveries/${d!.id}/retry`, { key });
    assert.equal([retried.status, retried.body.status, retried.body.max_attempts], [202, 'pending', 2]);
    await receiver.waitFor('/disabled', 2);
    await deliveryReaches(ctx, d!.id, 'succeeded', 2);
  },
);

t('an endpoint disabled while an attempt is in flight: the failed attempt does not wait for another', async (ctx) => {
  const { env, key, receiver } = ctx;
  const e = await createEndpoint(ctx, { url: receiver.url('/inflight') });
  receiver.script('/inflight', { status: 500, delayMs: 400 });
  await startDispatcher(ctx);
  await emit(ctx);
  await receiver.waitFor('/inflight', 1);
  await env.call('PATCH', `/v1/webhooks/${e.id}`, { key, body: { enabled: false } });
  const [d] = await deliveriesOf(ctx, e.id);
  const row = await deliveryReaches(ctx, d!.id, 'failed', 1);
  assert.equal([row.last_status_code, row.next_attempt_at], [500, null]);
});

t('test event: sent within a couple of seconds; retry brings a pending delivery forward', async (ctx) => {
  const { env, key, receiver } = ctx;
  const e = await createEndpoint(ctx, { url: receiver.url('/test'), events: ['recording.ready'] });
  receiver.expectSecrets('/test', e.secret);
  receiver.script('/test', { status: 500 });
  await startDispatcher(ctx, { pollMs: 1000 });
  const started = Date.now();
  const d = (await env.call('POST', `/v1/webhooks/${e.id}/test`, { key })).body;
  const [req] = await receiver.waitFor('/test', 1, 2000);
  assert.ok(Date.now() - started < 2000);
  assert.is(req?.headers['webhook-id'], d.event_id);
  const body = JSON.parse(req!.body);
  assert.is(body.type, 'webhook.test');
  assert.is(body.data.id, e.id);
  assert.is(body.data.secret, undefined);
  await deliveryReaches(ctx, d.id, 'pending', 1);
  const forward = await env.call('POST', `/v1/webhooks/${e.id}/deliveries/${d.id}/retry`, { key });
  assert.is(forward.status, 202);
  await receiver.waitFor('/test', 2, 2000);
  await deliveryReaches(ctx, d.id, 'succeeded', 2);
  assert.ok(receiver.on('/test').every((r) => r.verified[e.secret]));
});

t('a new event is attempted well under a second after it is created (LISTEN/NOTIFY, poll at 1 s)', async (ctx) => {
  const { receiver } = ctx;
  await createEndpoint(ctx, { url: receiver.url('/fast') });
  await startDispatcher(ctx, { pollMs: 1000 });
  await new Promise((r) => setTimeout(r, 100));
  const delays: number[] = [];
  for (let i = 1; i <= 5; i++) {
    const created = Date.now();
    await emit(ctx);
    const reqs = await receiver.waitFor('/fast', i, 2000);
    delays.push(reqs[i - 1]!.at - created);
    await new Promise((r) => setTimeout(r, 30 + Math.random() * 200));
  }
  delays.sort((a, b) => a - b);
  assert.ok(delays[2]! < 300, `median ${delays[2]} ms (${delays.join(', ')})`);
});

t('a slow receiver does not hold up the others', async (ctx) => {
  const { receiver } = ctx;
  const slow = await createEndpoint(ctx, { url: receiver.url('/tarpit') });
  const fast = await createEndpoint(ctx, { url: receiver.url('/quick') });
  receiver.script('/tarpit', ...Array.from({ length: 10 }, () => ({ status: 200, delayMs: 1500 })));
  await startDispatcher(ctx, { perEndpoint: 2, maxInFlight: 8 });
  const started = Date.now();
  for (let i = 0; i < 10; i++) await emit(ctx);
  await receiver.waitFor('/quick', 10, 1000);
  assert.ok(Date.now() - started < 1000, 'the fast endpoint got all ten at once');
  await new Promise((r) => setTimeout(r, 100));
  assert.is(receiver.on('/tarpit').length, 2, 'the slow one has two in flight at a time');
  assert.ok(slow.id && fast.id);
});

t('the limit per endpoint counts what is already in flight', async (ctx) => {
  const { receiver } = ctx;
  await createEndpoint(ctx, { url: receiver.url('/limited') });
  receiver.script('/limited', ...Array.from({ length: 8 }, () => ({ status: 200, delayMs: 1200 })));
  await startDispatcher(ctx, { perEndpoint: 3 });
  await emit(ctx);
  await receiver.waitFor('/limited', 1);
  for (let i = 0; i < 5; i++) await emit(ctx);
  await receiver.waitFor('/limited', 3);
  await new Promise((r) => setTimeout(r, 300));
  assert.is(receiver.on('/limited').length, 3, 'one in flight, then two more: three at a time');
});

t('two dispatchers on one database: every delivery sent exactly once (FOR UPDATE SKIP LOCKED)', async (ctx) => {
  const { receiver } = ctx;
  await createEndpoint(ctx, { url: receiver.url('/shared-a') });
  await createEndpoint(ctx, { url: receiver.url('/shared-b') });
  await startDispatcher(ctx, { perEndpoint: 8 });
  await startDispatcher(ctx, { perEndpoint: 8 });
  const ids = [];
  for (let i = 0; i < 40; i++) ids.push((await emit(ctx)).id);
  const a = await receiver.waitFor('/shared-a', 40, 10_000);
  const b = await receiver.waitFor('/shared-b', 40, 10_000);
  await new Promise((r) => setTimeout(r, 200));
  for (const reqs of [receiver.on('/shared-a'), receiver.on('/shared-b')]) {
    assert.is(reqs.length, 40);
    assert.equal(new Set(reqs.map((r) => r.headers['webhook-id'])).size, 40);
  }
  assert.equal(new Set(a.map((r) => r.headers['webhook-id'])), new Set(ids));
  assert.ok(b.length);
});

t.run();
