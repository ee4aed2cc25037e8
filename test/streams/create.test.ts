import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream, goLive, without } from '../helpers/streams.js';

// Limits out of the way: this suite is about fields and shapes, limits.test.ts about limits.
const t = apiSuite('streams: create', { limits: { new: { pending_streams: 1000, creations_per_hour: 1000 } } });

const STREAM_KEYS = [
  'channel_id',
  'chat',
  'created_at',
  'embed_url',
  'end_reason',
  'ended_at',
  'id',
  'ingest',
  'latency_mode',
  'max_duration_seconds',
  'max_ingest_resolution',
  'metadata',
  'name',
  'node_ready',
  'object',
  'playback_url',
  'playback_url_expires_at',
  'player',
  'profile',
  'record',
  'recording',
  'renditions',
  'replay',
  'reservation_expires_at',
  'reservation_expires_in_seconds',
  'rtmp_url',
  'status',
  'thumbnail',
  'viewers_now',
  'went_live_at',
];
const DEFAULT_PLAYER = {
  show_name: true,
  require_viewer_token: false,
  enabled: true,
  allowed_domains: null,
  watch_minutes_limit: null,
  closed_at: null,
};

t('creates a pending stream with every field and the defaults', async ({ env, key }) => {
  const res = await env.call('POST', '/v1/streams', { key, body: { name: 'Town hall' } });
  assert.is(res.status, 201, res.text);
  const s = res.body;
  assert.equal(Object.keys(s).sort(), [...STREAM_KEYS, 'stream_key', 'whip_url', 'srt_url'].sort());
  assert.match(s.id, /^str_[a-z0-9]{20}$/);
  assert.is(s.object, 'stream');
  assert.is(s.name, 'Town hall');
  assert.is(s.status, 'pending');
  assert.is(s.profile, 'abr_basic');
  assert.is(s.latency_mode, 'standard');
  assert.is(s.max_ingest_resolution, 720);
  assert.is(s.record, true);
  assert.is(s.replay, false);
  assert.is(s.recording, null);
  assert.is(s.ingest, null);
  assert.is(s.metadata, null);
  assert.is(s.viewers_now, null);
  assert.is(s.thumbnail, null);
  assert.is(s.went_live_at, null);
  assert.is(s.ended_at, null);
  assert.is(s.end_reason, null);
  assert.type(s.node_ready, 'boolean');
  assert.equal(s.player, DEFAULT_PLAYER);
  assert.is(s.created_at, '2026-11-22T12:00:00.000Z');
  assert.is(s.reservation_expires_at, '2026-11-22T12:30:00.000Z');
  assert.is(s.reservation_expires_in_seconds, 1800);
  assert.is(s.max_duration_seconds, 14400);
  assert.equal(s.renditions, ['source', '480p']);
  const [keyId, secret] = s.stream_key.split('?key=');
  assert.is(keyId, s.id);
  assert.match(secret, /^[A-Za-z0-9]{32}$/);
  assert.is(s.whip_url, `http://media.test:8080/live/${s.id}?direction=whip&key=${secret}`);
  assert.match(s.srt_url, /^srt:\/\/media\.test:\d+\?passphrase=[A-Za-z0-9_-]{32}&latency=\d+$/);
  assert.is(s.embed_url, `http://media.test:8082/${s.id}`);
  assert.is(s.rtmp_url, 'rtmp://media.test:1935/live');
  assert.is(s.cost, undefined);
  assert.is(s.viewers, undefined);
  assert.match(String(res.headers['x-request-id']), /^req_[a-z0-9]{20}$/);
  assert.is(res.headers['idempotent-replayed'], undefined);
});

t('no body, an empty body and an empty JSON object all create with the defaults', async ({ env, key }) => {
  const none = await env.call('POST', '/v1/streams', { key });
  const emptyJson = await env.call('POST', '/v1/streams', {
    key,
    payload: '',
    headers: { 'content-type': 'application/json' },
  });
  const obj = await env.call('POST', '/v1/streams', { key, body: {} });
  for (const res of [none, emptyJson, obj]) {
    assert.is(res.status, 201, res.text);
    assert.is(res.body.name, null);
    assert.is(res.body.profile, 'abr_basic');
    assert.is(res.body.max_ingest_resolution, 720);
    assert.is(res.body.record, true);
    assert.equal(res.body.player, DEFAULT_PLAYER);
  }
});

t('name: blank or null means no name; 100 characters are fine, 101 are refused', async ({ env, key }) => {
  for (const name of ['', '   ', '\t\n', null]) assert.is((await createStream(env, key, { name })).name, null);
  assert.is((await createStream(env, key, { name: 'x'.repeat(100) })).name, 'x'.repeat(100));
  assert.is((await createStream(env, key, { name: '🎥'.repeat(100) })).name, '🎥'.repeat(100));
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { name: 'x'.repeat(101) } }), 'name');
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { name: 5 } }), 'name');
});

t('profile and max_resolution decide the renditions', async ({ env, key }) => {
  const cases: [string | undefined, number | undefined, string[]][] = [
    ['abr_basic', 480, ['source']],
    ['abr_basic', 720, ['source', '480p']],
    ['passthrough', 720, ['source']],
    ['passthrough', 480, ['source']],
    [undefined, 480, ['source']],
  ];
  for (const [profile, max_resolution, renditions] of cases) {
    const s = await createStream(env, key, { profile, max_resolution });
    assert.is(s.profile, profile ?? 'abr_basic');
    assert.is(s.max_ingest_resolution, max_resolution);
    assert.equal(s.renditions, renditions, `${profile} ${max_resolution}`);
  }
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { profile: 'hd' } }), 'profile');
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { max_resolution: 540 } }), 'max_resolution');
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { max_resolution: '720' } }), 'max_resolution');
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { max_resolution: 720.5 } }), 'max_resolution');
});

t('record and replay are booleans, never coerced from strings or numbers', async ({ env, key }) => {
  assert.is((await createStream(env, key, { record: false })).record, false);
  assert.is((await createStream(env, key, { replay: true })).replay, true);
  for (const record of ['true', 'false', 1, 0, null]) {
    assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { record } }), 'record');
  }
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { replay: 'yes' } }), 'replay');
});

t(
  'recording_retention_days: 1-3650 or null, omitted means 30; shown in the recording once there is one',
  async ({ env, key, accountId }) => {
    const cases: [unknown, number | null][] = [
      [undefined, 30],
      [null, null],
      [1, 1],
      [3650, 3650],
      [7, 7],
    ];
    for (const [days, expected] of cases) {
      const body = days === undefined ? {} : { recording_retention_days: days };
      const s = await createStream(env, key, body);
      assert.is(s.recording, null, 'recording is null while pending');
      await goLive(env, accountId, s.id);
      const got = await env.call('GET', `/v1/streams/${s.id}`, { key });
      assert.is(got.body.recording.status, 'recording');
      assert.is(got.body.recording.retention_days, expected, `retention for ${String(days)}`);
    }
    for (const days of [0, 3651, -1, 1.5, '30', true]) {
      assertInvalidField(
        await env.call('POST', '/v1/streams', { key, body: { recording_retention_days: days } }),
        'recording_retention_days',
      );
    }
  },
);

t('metadata: up to 2048 bytes of JSON, counted in bytes; objects only', async ({ env, key }) => {
  // {"a":"…"} is 8 bytes of framing.
  const fits = { a: 'x'.repeat(2040) };
  assert.is(Buffer.byteLength(JSON.stringify(fits)), 2048);
  assert.equal((await createStream(env, key, { metadata: fits })).metadata, fits);
  const tooBig = { a: 'x'.repeat(2041) };
  const refused = await env.call('POST', '/v1/streams', { key, body: { metadata: tooBig } });
  assertInvalidField(refused, 'metadata');
  assert.is(refused.body.error.message, '`metadata` must be at most 2048 bytes of JSON.');
  const patched = await env.call('PATCH', `/v1/streams/${(await createStream(env, key)).id}`, {
    key,
    body: { metadata: tooBig },
  });
  assert.is(patched.body.error.message, '`metadata` must be at most 2048 bytes of JSON.');
  // 1021 two-byte characters: 1029 characters but 2050 bytes.
  assertInvalidField(
    await env.call('POST', '/v1/streams', { key, body: { metadata: { a: 'é'.repeat(1021) } } }),
    'metadata',
  );
  assert.equal((await createStream(env, key, { metadata: { a: 'é'.repeat(1020) } })).metadata, { a: 'é'.repeat(1020) });
  const nested = { order: { id: 42, tags: ['a', 'b'], paid: true, note: null }, 'key with spaces': 1.5 };
  assert.equal((await createStream(env, key, { metadata: nested })).metadata, nested);
  assert.is((await createStream(env, key, { metadata: null })).metadata, null);
  assert.equal((await createStream(env, key, { metadata: {} })).metadata, {});
  for (const metadata of [[], 'text', 5, true]) {
    assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { metadata } }), 'metadata');
  }
});

t(
  'player settings sent are merged with the defaults; unknown or mistyped player fields are refused',
  async ({ env, key }) => {
    const s = await createStream(env, key, {
      player: { show_name: false, allowed_domains: ['example.com', '*.example.org'] },
    });
    assert.equal(s.player, { ...DEFAULT_PLAYER, show_name: false, allowed_domains: ['example.com', '*.example.org'] });
    assert.equal((await createStream(env, key, { player: {} })).player, DEFAULT_PLAYER);
    assertInvalidField(
      await env.call('POST', '/v1/streams', { key, body: { player: { colour: 'red' } } }),
      'player.colour',
    );
    assertInvalidField(
      await env.call('POST', '/v1/streams', { key, body: { player: { show_name: 'false' } } }),
      'player.show_name',
    );
    assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { player: null } }), 'player');
  },
);

t('chat settings: defaults, merged on create and patch, checked field by field', async ({ env, key }) => {
  const s = await createStream(env, key);
  assert.equal(s.chat, { enabled: true, anonymous_posting: true, slow_mode_seconds: 0, reaction_sampling: null });
  const tuned = await createStream(env, key, { chat: { slow_mode_seconds: 30, reaction_sampling: 0.25 } });
  assert.equal(tuned.chat, { enabled: true, anonymous_posting: true, slow_mode_seconds: 30, reaction_sampling: 0.25 });
  const patched = await env.call('PATCH', `/v1/streams/${tuned.id}`, {
    key,
    body: { chat: { anonymous_posting: false } },
  });
  assert.is(patched.status, 200, patched.text);
  assert.equal(patched.body.chat, {
    enabled: true,
    anonymous_posting: false,
    slow_mode_seconds: 30,
    reaction_sampling: 0.25,
  });
  assertInvalidField(
    await env.call('POST', '/v1/streams', { key, body: { chat: { slow_mode_seconds: 3601 } } }),
    'chat.slow_mode_seconds',
  );
  assertInvalidField(
    await env.call('POST', '/v1/streams', { key, body: { chat: { reaction_sampling: 0 } } }),
    'chat.reaction_sampling',
  );
  assertInvalidField(
    await env.call('PATCH', `/v1/streams/${tuned.id}`, { key, body: { chat: { colour: 'red' } } }),
    'chat.colour',
  );
  assertInvalidField(
    await env.call('PATCH', `/v1/streams/${tuned.id}`, { key, body: { chat: { enabled: 'no' } } }),
    'chat.enabled',
  );
});

t('unknown fields are refused, named in details.field and in the message', async ({ env, key }) => {
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { name: 'ok', colour: 'red' } }), 'colour');
  assertInvalidField(
    await env.call('POST', '/v1/streams', { key, body: { max_ingest_resolution: 720 } }),
    'max_ingest_resolution',
  );
  const before = await env.db.sql`select count(*)::int as n from streams`;
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { status: 'live' } }), 'status');
  const after = await env.db.sql`select count(*)::int as n from streams`;
  assert.is(after[0]?.n, before[0]?.n, 'nothing created by a refused request');
});

t('a body that is not a JSON object is refused', async ({ env, key }) => {
  for (const payload of ['[]', '"x"', '42', 'null', 'true']) {
    assertError(
      await env.call('POST', '/v1/streams', { key, payload, headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_request',
    );
  }
});

t('trusted accounts get 24 h and may declare 1080', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  const s = await createStream(env, key, { max_resolution: 1080 });
  assert.is(s.max_duration_seconds, 86400);
  assert.is(s.max_ingest_resolution, 1080);
  assert.equal(s.renditions, ['source', '720p', '480p']);
  assert.equal((await createStream(env, key, { profile: 'passthrough', max_resolution: 1080 })).renditions, ['source']);
});

t('cost and viewers only on the single-stream read; the countdown runs on the clock', async ({ env, key }) => {
  const s = await createStream(env, key);
  env.clock.advance(100);
  const got = await env.call('GET', `/v1/streams/${s.id}`, { key });
  assert.is(got.status, 200);
  assert.is(got.body.reservation_expires_in_seconds, 1700);
  assert.is(got.body.reservation_expires_at, s.reservation_expires_at);
  assert.is(got.body.stream_key, undefined);
  assert.is(got.body.whip_url, undefined);
  assert.is(got.body.srt_url, undefined);
  assert.equal(got.body.cost, {
    total_usd: '0.00',
    delivery_bytes: 0,
    delivery_usd: '0.00',
    delivery_counted_until: null,
    ingest_seconds: 0,
    ingest_usd: '0.00',
    storage_gb_hours: 0,
    storage_usd: '0.00',
  });
  assert.equal(got.body.viewers, {
    now: null,
    peak: null,
    peak_at: null,
    watch_minutes: null,
    source: null,
    cdn_counted_until: null,
  });
  assert.is(got.body.viewers_now, null);
  assert.equal(
    { ...without(got.body, 'cost', 'viewers'), reservation_expires_in_seconds: 1800 },
    without(s, 'stream_key', 'whip_url', 'srt_url'),
  );

  const list = await env.call('GET', '/v1/streams?limit=5', { key });
  for (const item of list.body.data) {
    assert.equal(Object.keys(item).sort(), STREAM_KEYS);
  }
  const patched = await env.call('PATCH', `/v1/streams/${s.id}`, { key, body: { name: 'n' } });
  assert.equal(Object.keys(patched.body).sort(), STREAM_KEYS);
  const deleted = await env.call('DELETE', `/v1/streams/${s.id}`, { key });
  assert.equal(Object.keys(deleted.body).sort(), STREAM_KEYS);
});

t('viewer series of a stream', async ({ env, key }) => {
  const s = await createStream(env, key);
  const res = await env.call('GET', `/v1/streams/${s.id}/viewers`, { key });
  assert.is(res.status, 200, res.text);
  assert.equal(res.body, { object: 'viewer_series', stream_id: s.id, player: [], cdn: [], countries: [] });
});

t.run();
