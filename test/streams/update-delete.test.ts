import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import {
  assertError,
  assertInvalidField,
  assertStreamEvent,
  createStream,
  eventsOf,
  goLive,
  without,
} from '../helpers/streams.js';

const t = apiSuite('streams: update and delete', {
  limits: { new: { pending_streams: 1000, creations_per_hour: 1000 } },
});

const patch = (env: TestApi, key: string, id: string, body: unknown) =>
  env.call('PATCH', `/v1/streams/${id}`, { key, body });

t('patch: fields left out stay, null clears, blank name is no name; the change is stored', async ({ env, key }) => {
  const s = await createStream(env, key, { name: 'Before', metadata: { a: 1 } });
  let res = await patch(env, key, s.id, { name: 'After' });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.name, 'After');
  assert.equal(res.body.metadata, { a: 1 }, 'metadata left out stays');
  assert.is(res.body.cost, undefined);
  assert.is(res.body.stream_key, undefined);
  res = await patch(env, key, s.id, { metadata: null });
  assert.is(res.body.metadata, null);
  assert.is(res.body.name, 'After');
  res = await patch(env, key, s.id, { name: null });
  assert.is(res.body.name, null);
  await patch(env, key, s.id, { name: 'again' });
  assert.is((await patch(env, key, s.id, { name: '  ' })).body.name, null);
  assert.is((await patch(env, key, s.id, { name: 'x'.repeat(100) })).body.name, 'x'.repeat(100));
  const got = await env.call('GET', `/v1/streams/${s.id}`, { key });
  assert.is(got.body.name, 'x'.repeat(100));
  assert.is(got.body.metadata, null);
  assert.is(got.body.status, 'pending');
  assert.is(got.body.reservation_expires_in_seconds, 1800, 'patching does not touch the reservation');
});

t('patch: metadata is replaced whole; player fields merge into the stored settings', async ({ env, key }) => {
  const s = await createStream(env, key, { metadata: { a: 1, b: { c: 2 } }, player: { show_name: false } });
  assert.equal((await patch(env, key, s.id, { metadata: { b: { d: 3 } } })).body.metadata, { b: { d: 3 } });
  const res = await patch(env, key, s.id, { player: { enabled: false, watch_minutes_limit: 500 } });
  assert.equal(res.body.player, {
    show_name: false,
    require_viewer_token: false,
    enabled: false,
    allowed_domains: null,
    watch_minutes_limit: 500,
    closed_at: null,
  });
  const cleared = await patch(env, key, s.id, { player: { watch_minutes_limit: null, show_name: true } });
  assert.equal(cleared.body.player, {
    show_name: true,
    require_viewer_token: false,
    enabled: false,
    allowed_domains: null,
    watch_minutes_limit: null,
    closed_at: null,
  });
  assert.equal((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.player, cleared.body.player);
});

t('patch: empty body, unknown fields and wrong types are refused', async ({ env, key }) => {
  const s = await createStream(env, key, { name: 'keep' });
  assertError(await patch(env, key, s.id, {}), 400, 'invalid_request');
  assertError(await env.call('PATCH', `/v1/streams/${s.id}`, { key }), 400, 'invalid_request');
  assertInvalidField(await patch(env, key, s.id, { name: 'x', record: false }), 'record');
  assertInvalidField(await patch(env, key, s.id, { status: 'ended' }), 'status');
  assertInvalidField(await patch(env, key, s.id, { player: { colour: 'red' } }), 'player.colour');
  assertInvalidField(await patch(env, key, s.id, { name: 'x'.repeat(101) }), 'name');
  assertInvalidField(await patch(env, key, s.id, { name: 5 }), 'name');
  assertInvalidField(await patch(env, key, s.id, { metadata: [1] }), 'metadata');
  assertInvalidField(await patch(env, key, s.id, { metadata: { a: 'x'.repeat(2041) } }), 'metadata');
  assertInvalidField(await patch(env, key, s.id, { player: { enabled: 'no' } }), 'player.enabled');
  assertInvalidField(await patch(env, key, s.id, { player: null }), 'player');
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.name, 'keep');
});

t('patch works in any status', async ({ env, key, accountId }) => {
  const live = await createStream(env, key);
  await goLive(env, accountId, live.id);
  assert.is((await patch(env, key, live.id, { name: 'live now' })).body.name, 'live now');
  await env.call('DELETE', `/v1/streams/${live.id}`, { key });
  const ended = await patch(env, key, live.id, { metadata: { after: true } });
  assert.is(ended.status, 200);
  assert.is(ended.body.status, 'ended');
  assert.equal(ended.body.metadata, { after: true });
  const cancelled = await createStream(env, key);
  await env.call('DELETE', `/v1/streams/${cancelled.id}`, { key });
  assert.is((await patch(env, key, cancelled.id, { player: { show_name: false } })).body.player.show_name, false);
});

t(
  'latency_mode: standard by default, low on request; changed while pending, refused (409) once live; unknown values refused',
  async ({ env, key, accountId }) => {
    const low = await createStream(env, key, { latency_mode: 'low' });
    assert.is(low.latency_mode, 'low');
    assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { latency_mode: 'ultra' } }), 'latency_mode');
    assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { latency_mode: null } }), 'latency_mode');
    assertInvalidField(await patch(env, key, low.id, { latency_mode: 'LOW' }), 'latency_mode');
    const s = await createStream(env, key);
    assert.is(s.latency_mode, 'standard');
    assert.is((await patch(env, key, s.id, { latency_mode: 'low' })).body.latency_mode, 'low');
    assert.is((await patch(env, key, s.id, { latency_mode: 'standard', name: 'back' })).body.latency_mode, 'standard');
    await patch(env, key, s.id, { latency_mode: 'low' });
    await goLive(env, accountId, s.id);
    const refused = await patch(env, key, s.id, { latency_mode: 'standard', name: 'not applied' });
    assertError(refused, 409, 'stream_not_pending');
    assert.is(refused.body.error.details.status, 'live');
    const read = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body;
    assert.is(read.latency_mode, 'low');
    assert.is(read.name, 'back', 'a refused patch changes nothing');
    // The current value is no change: accepted in any status (a client sending back what it read).
    assert.is((await patch(env, key, s.id, { latency_mode: 'low', name: 'live' })).body.name, 'live');
  },
);

t(
  'delete a pending stream: cancelled, one stream.cancelled event; again: unchanged, no new event',
  async ({ env, key }) => {
    const s = await createStream(env, key, { name: 'to cancel', metadata: { k: 'v' } });
    env.clock.advance(42);
    const res = await env.call('DELETE', `/v1/streams/${s.id}`, { key });
    assert.is(res.status, 200, res.text);
    const c = res.body;
    assert.is(c.status, 'cancelled');
    assert.is(c.ended_at, new Date(new Date(s.created_at).getTime() + 42_000).toISOString());
    assert.is(c.end_reason, null);
    assert.is(c.went_live_at, null);
    assert.equal(c.recording, {
      status: 'none',
      bytes: null,
      duration_seconds: null,
      retention_days: 30,
      ready_at: null,
      delete_at: null,
      delete_reason: null,
      deleted_at: null,
    });
    assert.is(c.reservation_expires_at, null);
    assert.is(c.reservation_expires_in_seconds, null);
    assert.is(c.rtmp_url, null);
    assert.is(c.playback_url, null);
    assert.is(c.cost, undefined);

    const events = await eventsOf(env, s.id);
    assert.is(events.length, 1);
    assertStreamEvent(events[0]!, 'stream.cancelled', c);
    assert.is(events[0]!.payload.timestamp, c.ended_at);

    env.clock.advance(5);
    const again = await env.call('DELETE', `/v1/streams/${s.id}`, { key });
    assert.is(again.status, 200);
    assert.equal(again.body, c, 'unchanged');
    assert.is((await eventsOf(env, s.id)).length, 1, 'no new event');
    assert.equal((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.status, 'cancelled');
  },
);

t('delete a pending stream created with record false: recording not_recorded', async ({ env, key }) => {
  const s = await createStream(env, key, { record: false });
  const c = (await env.call('DELETE', `/v1/streams/${s.id}`, { key })).body;
  assert.is(c.recording.status, 'not_recorded');
  assertStreamEvent((await eventsOf(env, s.id))[0]!, 'stream.cancelled', c);
});

t(
  'delete a live stream: ended with end_reason deleted, recording processing, event stream.ended',
  async ({ env, key, accountId }) => {
    const s = await createStream(env, key, { name: 'live', metadata: { m: 1 } });
    env.clock.advance(10);
    await goLive(env, accountId, s.id);
    const live = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body;
    assert.is(live.status, 'live');
    assert.is(live.went_live_at, new Date(new Date(s.created_at).getTime() + 10_000).toISOString());
    assert.is(live.recording.status, 'recording');
    assert.is(live.reservation_expires_at, null);
    assert.is(live.reservation_expires_in_seconds, null);
    assert.is(live.rtmp_url, s.rtmp_url);
    env.clock.advance(600);
    const res = await env.call('DELETE', `/v1/streams/${s.id}`, { key });
    assert.is(res.status, 200, res.text);
    const e = res.body;
    assert.is(e.status, 'ended');
    assert.is(e.end_reason, 'deleted');
    assert.is(e.went_live_at, live.went_live_at);
    assert.is(e.ended_at, new Date(new Date(live.went_live_at).getTime() + 600_000).toISOString());
    assert.is(e.recording.status, 'processing');
    assert.is(e.rtmp_url, null);

    const events = await eventsOf(env, s.id);
    assert.equal(
      events.map((x) => x.type),
      ['stream.live', 'stream.ended'],
    );
    assertStreamEvent(events[1]!, 'stream.ended', e);
    assert.is(events[1]!.payload.data.end_reason, 'deleted');
    assert.is(events[1]!.payload.timestamp, e.ended_at);

    const again = await env.call('DELETE', `/v1/streams/${s.id}`, { key });
    assert.equal(again.body, e);
    assert.is((await eventsOf(env, s.id)).length, 2);
  },
);

t('delete a live stream created with record false: recording not_recorded', async ({ env, key, accountId }) => {
  const s = await createStream(env, key, { record: false });
  await goLive(env, accountId, s.id);
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.recording.status, 'not_recorded');
  const e = (await env.call('DELETE', `/v1/streams/${s.id}`, { key })).body;
  assert.is(e.status, 'ended');
  assert.is(e.recording.status, 'not_recorded');
});

t('delete an expired stream: unchanged, no event', async ({ env, key }) => {
  const s = await createStream(env, key);
  env.clock.advance(1801);
  await env.api.streams.expireReservations();
  const before = without((await env.call('GET', `/v1/streams/${s.id}`, { key })).body, 'cost', 'viewers');
  assert.is(before.status, 'expired');
  const res = await env.call('DELETE', `/v1/streams/${s.id}`, { key });
  assert.is(res.status, 200);
  assert.equal(res.body, before);
  assert.equal(
    (await eventsOf(env, s.id)).map((x) => x.type),
    ['stream.expired'],
  );
});

t('a body sent to delete is ignored when it is JSON', async ({ env, key }) => {
  const s = await createStream(env, key);
  const res = await env.call('DELETE', `/v1/streams/${s.id}`, { key, body: {} });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.status, 'cancelled');
});

t.run();
