import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertStreamEvent, createStream, eventsOf, goLive } from '../helpers/streams.js';

const t = suite<{ env: TestApi }>('streams: reservation expiry');
t.before(async (ctx) => {
  ctx.env = await createTestApi();
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t('the countdown runs with the clock and never goes below zero', async ({ env }) => {
  const { key } = await env.newAccount();
  const s = await createStream(env, key);
  assert.is(s.reservation_expires_in_seconds, 1800);
  assert.is(new Date(s.reservation_expires_at).getTime() - new Date(s.created_at).getTime(), 1800_000);
  env.clock.advance(0.4);
  assert.is(
    (await env.call('GET', `/v1/streams/${s.id}`, { key })).body.reservation_expires_in_seconds,
    1800,
    'whole seconds, rounded up',
  );
  env.clock.advance(1199.6);
  const got = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body;
  assert.is(got.reservation_expires_in_seconds, 600);
  assert.is(got.reservation_expires_at, s.reservation_expires_at);
  const listed = (await env.call('GET', '/v1/streams', { key })).body.data.find((x: { id: string }) => x.id === s.id);
  assert.is(listed.reservation_expires_in_seconds, 600);
  env.clock.advance(700);
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.reservation_expires_in_seconds, 0);
  await env.api.streams.expireReservations();
});

t(
  '30 minutes without a publisher: expired with reservation_ttl and a stream.expired event; streams not yet due stay pending',
  async ({ env }) => {
    const { id: accountId, key } = await env.newAccount();
    const a = await createStream(env, key, { name: 'a', metadata: { n: 1 } });
    env.clock.advance(1000);
    const b = await createStream(env, key, { name: 'b' });
    env.clock.advance(799);
    assert.is(await env.api.streams.expireReservations(), 0, 'a is due only at 1800 s');
    env.clock.advance(2);

    assert.is(await env.api.streams.expireReservations(), 1);
    const ea = (await env.call('GET', `/v1/streams/${a.id}`, { key })).body;
    assert.is(ea.status, 'expired');
    assert.is(ea.end_reason, 'reservation_ttl');
    assert.is(ea.ended_at, a.reservation_expires_at, 'ended when the reservation ran out');
    assert.is(ea.reservation_expires_at, null);
    assert.is(ea.reservation_expires_in_seconds, null);
    assert.is(ea.went_live_at, null);
    assert.is(ea.recording.status, 'none');
    assert.is(ea.rtmp_url, null);
    const events = await eventsOf(env, a.id);
    assert.is(events.length, 1);
    assertStreamEvent(events[0]!, 'stream.expired', ea);
    assert.is(events[0]!.payload.timestamp, a.reservation_expires_at);
    assert.is(events[0]!.account_id, accountId);

    const pb = (await env.call('GET', `/v1/streams/${b.id}`, { key })).body;
    assert.is(pb.status, 'pending');
    assert.is(pb.reservation_expires_in_seconds, 999);
    assert.is((await eventsOf(env, b.id)).length, 0);

    assert.is(await env.api.streams.expireReservations(), 0, 'a second run finds nothing');
    assert.is((await eventsOf(env, a.id)).length, 1);

    env.clock.advance(999);
    assert.is(await env.api.streams.expireReservations(), 1);
    assert.is((await env.call('GET', `/v1/streams/${b.id}`, { key })).body.status, 'expired');
  },
);

t('live, cancelled and record:false streams: only pending ones expire', async ({ env }) => {
  const { id: accountId, key } = await env.newAccount({ trusted: true });
  const live = await createStream(env, key);
  await goLive(env, accountId, live.id);
  const cancelled = await createStream(env, key);
  await env.call('DELETE', `/v1/streams/${cancelled.id}`, { key });
  const unrecorded = await createStream(env, key, { record: false });
  env.clock.advance(1801);
  assert.is(await env.api.streams.expireReservations(), 1);
  assert.is((await env.call('GET', `/v1/streams/${live.id}`, { key })).body.status, 'live');
  assert.is((await env.call('GET', `/v1/streams/${cancelled.id}`, { key })).body.status, 'cancelled');
  const u = (await env.call('GET', `/v1/streams/${unrecorded.id}`, { key })).body;
  assert.is(u.status, 'expired');
  assert.is(u.recording.status, 'not_recorded');
});

t('an expired stream frees its pending slot', async ({ env }) => {
  const { key } = await env.newAccount();
  await createStream(env, key);
  await createStream(env, key);
  assert.is((await env.call('POST', '/v1/streams', { key })).status, 429);
  env.clock.advance(1801);
  await env.api.streams.expireReservations();
  await createStream(env, key);
});

t('many due streams are expired in batches', async () => {
  const env = await createTestApi({ limits: { trusted: { pending_streams: 1000, creations_per_hour: 1000 } } });
  try {
    const { key } = await env.newAccount({ trusted: true });
    for (let i = 0; i < 12; i++) await createStream(env, key);
    env.clock.advance(1801);
    assert.is(await env.api.streams.expireReservations(5), 12);
    const rows = await env.db.sql`select count(*)::int as n from events where type = 'stream.expired'`;
    assert.is(rows[0]?.n, 12);
  } finally {
    await env.close();
  }
});

t.run();
