import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream, goLive } from '../helpers/streams.js';

const t = apiSuite('public embed read and beats', {
  limits: { new: { pending_streams: 50, creations_per_hour: 500 } },
});

const EMBED_FIELDS = [
  'access',
  'beacon',
  'ended_at',
  'id',
  'object',
  'playback_url',
  'playback_url_expires_at',
  'poll_after_seconds',
  'poster_url',
  'replay',
  'status',
  'title',
  'went_live_at',
];
/** The public side caches a stream for a second per node. */
const ONE_SECOND = 1;

t('pending: every field, polled every 5 s, beacon exact, no playback yet, any origin', async ({ env, key }) => {
  const s = await createStream(env, key, { name: 'Town hall' });
  const res = await env.call('GET', `/v1/embed/${s.id}`);
  assert.is(res.status, 200, res.text);
  assert.equal(Object.keys(res.body).sort(), EMBED_FIELDS);
  assert.equal(
    { ...res.body, beacon: null },
    {
      object: 'embed',
      id: s.id,
      status: 'pending',
      title: 'Town hall',
      playback_url: null,
      playback_url_expires_at: null,
      replay: false,
      went_live_at: null,
      ended_at: null,
      poll_after_seconds: 5,
      beacon: null,
      access: 'public',
      poster_url: `http://media.test:8081/_thumb/${s.id}.jpg`,
    },
  );
  assert.is(res.body.beacon.rate, 1);
  assert.ok(Number.isInteger(res.body.beacon.interval_seconds) && res.body.beacon.interval_seconds > 0);
  assert.is(res.headers['access-control-allow-origin'], '*');
  assert.is(res.headers['access-control-allow-credentials'], undefined);
  assert.is(res.headers['set-cookie'], undefined);
});

t('live: one signed URL for every viewer, polled every 60 s', async ({ env, key, accountId }) => {
  const s = await createStream(env, key);
  const row = await goLive(env, accountId, s.id);
  env.clock.advance(ONE_SECOND);
  const a = await env.call('GET', `/v1/embed/${s.id}`, { headers: { 'x-forwarded-for': '203.0.113.1' } });
  const b = await env.call('GET', `/v1/embed/${s.id}`, { headers: { 'x-forwarded-for': '203.0.113.2' } });
  assert.is(a.body.status, 'live');
  assert.is(a.body.poll_after_seconds, 60);
  assert.is(a.body.went_live_at, (row.went_live_at as Date).toISOString());
  assert.match(
    a.body.playback_url,
    new RegExp(`^http://media\\.test:8081/[A-Za-z0-9_-]{22}\\.\\d{10}/${s.id}/master\\.m3u8$`),
  );
  assert.is(a.body.playback_url, b.body.playback_url);
  // The owner's own read: the same path and expiry, but its own signature, which closing the player does not stop.
  const owner = await env.call('GET', `/v1/streams/${s.id}`, { key });
  assert.is.not(a.body.playback_url, owner.body.playback_url);
  assert.is(a.body.playback_url.split('/').slice(-2).join('/'), owner.body.playback_url.split('/').slice(-2).join('/'));
  assert.is(a.body.playback_url_expires_at, owner.body.playback_url_expires_at);
});

t(
  'finished streams: ended, or unavailable when expired or cancelled; no polling, no beacon',
  async ({ env, key, accountId }) => {
    const live = await createStream(env, key);
    await goLive(env, accountId, live.id);
    await env.call('DELETE', `/v1/streams/${live.id}`, { key });
    const cancelled = await createStream(env, key);
    await env.call('DELETE', `/v1/streams/${cancelled.id}`, { key });
    const expired = await createStream(env, key);
    await env.db
      .sql`update streams set status = 'expired', ended_at = now(), end_reason = 'reservation_ttl' where id = ${expired.id}`;
    env.clock.advance(ONE_SECOND);
    for (const [id, status] of [
      [live.id, 'ended'],
      [cancelled.id, 'unavailable'],
      [expired.id, 'unavailable'],
    ]) {
      const res = await env.call('GET', `/v1/embed/${id}`);
      assert.is(res.body.status, status, id);
      assert.is(res.body.poll_after_seconds, null);
      assert.is(res.body.beacon, null);
      assert.is(res.body.playback_url, null);
      assert.is(res.body.playback_url_expires_at, null);
    }
    const ended = await env.call('GET', `/v1/embed/${live.id}`);
    assert.ok(ended.body.ended_at);
  },
);

t('player settings: show_name, members-only, enabled, closed_at', async ({ env, key, accountId }) => {
  const hidden = await createStream(env, key, { name: 'Secret name', player: { show_name: false } });
  assert.is((await env.call('GET', `/v1/embed/${hidden.id}`)).body.title, null);
  assert.not.match((await env.call('GET', `/v1/embed/${hidden.id}`)).text, 'Secret name');

  const members = await createStream(env, key, { player: { require_viewer_token: true } });
  await goLive(env, accountId, members.id);
  env.clock.advance(ONE_SECOND);
  const m = await env.call('GET', `/v1/embed/${members.id}`);
  assert.is(m.body.status, 'live');
  assert.is(m.body.access, 'viewer_token');
  assert.is(m.body.playback_url, null);

  const off = await createStream(env, key, { player: { enabled: false } });
  const closed = await env.call('GET', `/v1/embed/${off.id}`);
  assert.is(closed.body.status, 'closed');
  assert.is(closed.body.beacon, null);
  assert.is(closed.body.playback_url, null);
  // The owner may reopen a stream that can still go on: the player keeps asking.
  assert.is(closed.body.poll_after_seconds, 60);
  await env.call('PATCH', `/v1/streams/${off.id}`, { key, body: { player: { enabled: true } } });
  env.clock.advance(ONE_SECOND);
  assert.is((await env.call('GET', `/v1/embed/${off.id}`)).body.status, 'pending');

  const soon = new Date(env.clock.now().getTime() + 60_000).toISOString();
  const timed = await createStream(env, key, { player: { closed_at: soon } });
  assert.is((await env.call('GET', `/v1/embed/${timed.id}`)).body.status, 'pending');
  env.clock.advance(61);
  assert.is((await env.call('GET', `/v1/embed/${timed.id}`)).body.status, 'closed');
});

t(
  'watch_minutes_limit: the player closes once the stream has been watched that long',
  async ({ env, key, accountId }) => {
    const s = await createStream(env, key, { player: { watch_minutes_limit: 3 } });
    await goLive(env, accountId, s.id);
    const watched = async (seconds: number, minute: string) =>
      env.db
        .sql`insert into viewer_minutes ${env.db.sql({ stream_id: s.id, minute: new Date(minute), watching_seconds: seconds, waiting_seconds: 0, buffering_seconds: 0, watched_seconds: seconds, exact: true })}`;
    await watched(120, '2026-11-22T12:00:00Z');
    env.clock.advance(ONE_SECOND);
    assert.is((await env.call('GET', `/v1/embed/${s.id}`)).body.status, 'live');
    await watched(60, '2026-11-22T12:01:00Z');
    env.clock.advance(ONE_SECOND);
    const closed = await env.call('GET', `/v1/embed/${s.id}`);
    assert.is(closed.body.status, 'closed');
    assert.is(closed.body.playback_url, null);
    assert.is(closed.body.beacon, null);
    const read = await env.call('GET', `/v1/streams/${s.id}`, { key });
    assert.is(read.body.viewers.watch_minutes, 3);
    assert.is(read.body.viewers.peak, 2);
    assert.is(read.body.viewers.peak_at, '2026-11-22T12:00:00.000Z');
    assert.is(read.body.viewers.source, 'player');
    const series = await env.call('GET', `/v1/streams/${s.id}/viewers`, { key });
    assert.equal(
      series.body.player.map((p: { minute: string; watching: number }) => [p.minute, p.watching]),
      [
        ['2026-11-22T12:00:00.000Z', 2],
        ['2026-11-22T12:01:00.000Z', 1],
      ],
    );
  },
);

t(
  'unknown ids: 404; more than 60 in a minute from one address: 429 with Retry-After, others unaffected',
  async ({ env, key }) => {
    const s = await createStream(env, key);
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const notFound = await env.call('GET', '/v1/embed/str_aaaaaaaaaaaaaaaaaaaa', from('198.51.100.7'));
    assertError(notFound, 404, 'not_found');
    assert.is(notFound.headers['access-control-allow-origin'], '*');
    // Malformed ids are unknown ids too: the same 404, counted.
    assertError(await env.call('GET', '/v1/embed/nonsense', from('198.51.100.7')), 404, 'not_found');
    for (let i = 2; i < 60; i++)
      assertError(
        await env.call('GET', `/v1/embed/str_${String(i).padStart(20, '0')}`, from('198.51.100.7')),
        404,
        'not_found',
      );
    const limited = await env.call('GET', '/v1/embed/str_bbbbbbbbbbbbbbbbbbbb', from('198.51.100.7'));
    assertError(limited, 429, 'rate_limited');
    const retry = Number(limited.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, String(retry));
    // The limited address cannot tell known ids from unknown ones, beats included.
    assertError(await env.call('GET', `/v1/embed/${s.id}`, from('198.51.100.7')), 429, 'rate_limited');
    assertError(
      await env.call('POST', `/v1/embed/${s.id}/beat?s=abcdefgh12&st=w&u=0.5`, from('198.51.100.7')),
      429,
      'rate_limited',
    );
    // Another address is not affected.
    assert.is((await env.call('GET', `/v1/embed/${s.id}`, from('198.51.100.8'))).status, 200);
    env.clock.advance(61);
    assert.is((await env.call('GET', `/v1/embed/${s.id}`, from('198.51.100.7'))).status, 200);
  },
);

t('CORS preflight: any origin, GET and POST, no credentials', async ({ env, key }) => {
  const s = await createStream(env, key);
  const res = await env.call('OPTIONS', `/v1/embed/${s.id}/beat`, {
    headers: { origin: 'https://example.org', 'access-control-request-method': 'POST' },
  });
  assert.is(res.status, 204);
  assert.is(res.headers['access-control-allow-origin'], '*');
  assert.match(String(res.headers['access-control-allow-methods']), 'POST');
  // Keyed endpoints stay closed to browsers.
  const keyed = await env.call('GET', `/v1/streams/${s.id}`, { key, headers: { origin: 'https://example.org' } });
  assert.is(keyed.headers['access-control-allow-origin'], undefined);
});

t('beats: validated field by field, 204, counted into viewers', async ({ env, key }) => {
  const s = await createStream(env, key);
  const beat = (query: string, opts: { payload?: string; headers?: Record<string, string> } = {}) =>
    env.call('POST', `/v1/embed/${s.id}/beat?${query}`, opts);
  assertInvalidField(await beat('st=w&u=0.5'), 's');
  assertInvalidField(await beat('s=short&st=w&u=0.5'), 's');
  assertInvalidField(await beat('s=abcdefgh12&st=x&u=0.5'), 'st');
  assertInvalidField(await beat('s=abcdefgh12&u=0.5'), 'st');
  assertInvalidField(await beat('s=abcdefgh12&st=w&u=1'), 'u');
  assertInvalidField(await beat('s=abcdefgh12&st=w&u=-0.1'), 'u');
  assertInvalidField(await beat('s=abcdefgh12&st=w&u=half'), 'u');
  assertInvalidField(await beat('s=abcdefgh12&st=w'), 'u');
  assertInvalidField(await beat('s=abcdefgh12&st=w&u=0.5&ip=1.2.3.4'), 'ip');
  assertInvalidField(
    await beat('s=abcdefgh12&st=w&u=0.5', { payload: '{"a":1}', headers: { 'content-type': 'application/json' } }),
    'body',
  );

  for (const [id, st] of [
    ['viewer-aaaa-1', 'w'],
    ['viewer-aaaa-2', 'w'],
    ['viewer-aaaa-3', 'w'],
  ]) {
    const res = await beat(`s=${id}&st=${st}&u=0.25`);
    assert.is(res.status, 204, res.text);
    assert.is(res.text, '');
  }
  // `t` must be a session token of this stream (test/identity/sessions.test.ts): anything else is refused, not counted.
  assertError(await beat('s=viewer-aaaa-4&st=w&u=0.25&t=vsn_token'), 401, 'invalid_viewer_token');
  const read = await env.call('GET', `/v1/streams/${s.id}`, { key });
  assert.is(read.body.viewers.now.waiting, 3);
  assert.is(read.body.viewers.now.watching, 0);
  assert.is(read.body.viewers.now.exact, true);
  assertError(
    await env.call('POST', '/v1/embed/str_cccccccccccccccccccc/beat?s=abcdefgh12&st=w&u=0.5'),
    404,
    'not_found',
  );
});

t('beats on a finished stream: 204, not counted', async ({ env, key }) => {
  const s = await createStream(env, key);
  await env.call('DELETE', `/v1/streams/${s.id}`, { key });
  env.clock.advance(ONE_SECOND);
  assert.is((await env.call('POST', `/v1/embed/${s.id}/beat?s=abcdefgh12&st=p&u=0.5`)).status, 204);
  const read = await env.call('GET', `/v1/streams/${s.id}`, { key });
  assert.is(read.body.viewers.now, null);
  assert.is(read.body.viewers_now, null);
});

t.run();
