import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream } from '../helpers/streams.js';

const t = suite<{ env: TestApi; key: string }>('http: errors');
t.before(async (ctx) => {
  ctx.env = await createTestApi({ limits: { new: { pending_streams: 1000, creations_per_hour: 1000 } } });
  ctx.key = (await ctx.env.newAccount()).key;
});
t.after(async (ctx) => {
  await ctx.env.close();
});

const json = { 'content-type': 'application/json' };

t('every response carries a fresh X-Request-Id; a client cannot choose it', async ({ env, key }) => {
  const ids = new Set<string>();
  const responses = [
    await env.call('GET', '/'),
    await env.call('GET', '/healthz'),
    await env.call('GET', '/v1/streams', { key }),
    await env.call('POST', '/v1/streams', { key, body: {} }),
    await env.call('GET', '/v1/streams', { key, headers: { 'x-request-id': 'req_chosenbytheclient0' } }),
    await env.call('GET', '/nope'),
    await env.call('GET', '/v1/streams'),
  ];
  for (const res of responses) {
    const id = String(res.headers['x-request-id']);
    assert.match(id, /^req_[a-z0-9]{20}$/);
    assert.is.not(id, 'req_chosenbytheclient0');
    ids.add(id);
  }
  assert.is(ids.size, responses.length);
});

t('unknown routes and methods: 404 not_found in the error shape', async ({ env, key }) => {
  assertError(await env.call('GET', '/v2/streams', { key }), 404, 'not_found');
  assertError(await env.call('PUT', '/v1/streams', { key, body: {} }), 404, 'not_found');
  assertError(await env.call('GET', '/v1/streams/str_aaaaaaaaaaaaaaaaaaaa/nothing', { key }), 404, 'not_found');
  assertError(await env.call('POST', '/v1/streams/str_aaaaaaaaaaaaaaaaaaaa', { key, body: {} }), 404, 'not_found');
});

t('paths that do not decode or are absurdly long: 404 in the error shape, with X-Request-Id', async ({ env, key }) => {
  for (const path of [
    '/v1/streams/%E0%A4%A',
    '/v1/streams/%zz',
    '/v1/streams/%C0%AF/viewers',
    '/v1/streams/%ED%A0%80/stream-key',
    `/v1/streams/${'a'.repeat(300)}`,
    `/v1/streams/${'a'.repeat(201)}/viewers`,
  ]) {
    for (const method of ['GET', 'PATCH', 'DELETE', 'POST'] as const) {
      const res = await env.call(method, path, { key, body: method === 'PATCH' ? { name: 'x' } : undefined });
      assertError(res, 404, 'not_found');
    }
  }
  // Without a key the same paths still answer in the error shape.
  assertError(await env.call('GET', '/v1/streams/%E0%A4%A'), 404, 'not_found');
});

t('PATCH without a body or with an empty object: 400 invalid_request', async ({ env, key }) => {
  const s = await createStream(env, key);
  const none = await env.call('PATCH', `/v1/streams/${s.id}`, { key });
  assertError(none, 400, 'invalid_request');
  const empty = await env.call('PATCH', `/v1/streams/${s.id}`, { key, body: {} });
  assertError(empty, 400, 'invalid_request');
  assert.match(empty.body.error.message, /at least one field/);
});

t('400 for bodies that are not JSON, not an object, or too large', async ({ env, key }) => {
  const cases: { payload: string; headers: Record<string, string> }[] = [
    { payload: '{', headers: json },
    { payload: '{"name": "x",}', headers: json },
    { payload: "{'name': 'x'}", headers: json },
    { payload: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    { payload: '{"name":"x"}', headers: { 'content-type': 'text/plain' } },
    { payload: '{"name":"x"}', headers: { 'content-type': 'multipart/form-data; boundary=x' } },
    { payload: '{"name":"x"}', headers: { 'content-type': 'application/xml' } },
    { payload: 'x'.repeat(1 << 20), headers: json },
    { payload: JSON.stringify({ metadata: { a: 'x'.repeat(70_000) } }), headers: json },
  ];
  const before = await env.db.sql`select count(*)::int as n from streams`;
  for (const c of cases) assertError(await env.call('POST', '/v1/streams', { key, ...c }), 400, 'invalid_request');
  for (const c of cases)
    assertError(await env.call('PATCH', '/v1/streams/str_aaaaaaaaaaaaaaaaaaaa', { key, ...c }), 400, 'invalid_request');
  const after = await env.db.sql`select count(*)::int as n from streams`;
  assert.is(after[0]?.n, before[0]?.n);
  // A JSON media type with a suffix is JSON.
  assert.is(
    (
      await env.call('POST', '/v1/streams', {
        key,
        payload: '{"name":"v"}',
        headers: { 'content-type': 'application/vnd.api+json' },
      })
    ).status,
    201,
  );
  assert.is(
    (
      await env.call('POST', '/v1/streams', {
        key,
        payload: '{"name":"v"}',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      })
    ).status,
    201,
  );
});

t('400 names the unknown or mistyped field; types are never coerced', async ({ env, key }) => {
  const cases: [unknown, string][] = [
    [{ colour: 'red' }, 'colour'],
    [{ name: 'x', Name: 'y' }, 'Name'],
    [{ player: { show_name: true, size: 'big' } }, 'player.size'],
    [{ record: 'true' }, 'record'],
    [{ record: 1 }, 'record'],
    [{ replay: 'false' }, 'replay'],
    [{ max_resolution: '1080' }, 'max_resolution'],
    [{ recording_retention_days: '30' }, 'recording_retention_days'],
    [{ name: ['x'] }, 'name'],
    [{ name: { first: 'x' } }, 'name'],
    [{ metadata: 'x' }, 'metadata'],
    [{ player: 'x' }, 'player'],
    [{ player: { allowed_domains: 'example.com' } }, 'player.allowed_domains'],
    [{ player: { allowed_domains: ['Not A Host!'] } }, 'player.allowed_domains.0'],
    [{ player: { watch_minutes_limit: 0 } }, 'player.watch_minutes_limit'],
    [{ player: { closed_at: 'tomorrow' } }, 'player.closed_at'],
  ];
  for (const [body, field] of cases) {
    const res = await env.call('POST', '/v1/streams', { key, body });
    assertInvalidField(res, field);
  }
  const unknown = await env.call('POST', '/v1/streams', { key, body: { colour: 'red' } });
  assert.match(unknown.body.error.message, /unknown field `colour`/i);
});

t('text PostgreSQL cannot store is refused as 400, not a 500', async ({ env, key }) => {
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { name: 'a\u0000b' } }), 'name');
  assertInvalidField(
    await env.call('POST', '/v1/streams', { key, body: { metadata: { note: 'x\u0000' } } }),
    'metadata.note',
  );
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { metadata: { 'k\u0000': 1 } } }), 'metadata');
  assertInvalidField(
    await env.call('POST', '/v1/streams', { key, payload: '{"metadata":{"a":"\\ud800"}}', headers: json }),
    'metadata.a',
  );
  assertInvalidField(
    await env.call('POST', '/v1/streams', { key, payload: '{"name":"\\udfff x"}', headers: json }),
    'name',
  );
  const s = await createStream(env, key, { name: 'ok' });
  assertInvalidField(
    await env.call('PATCH', `/v1/streams/${s.id}`, { key, body: { metadata: { list: ['a', 'b\u0000'] } } }),
    'metadata.list.1',
  );
  // Well-formed non-ASCII text is kept as sent.
  const text = 'Zoë — 直播 🎥 \u200b';
  const ok = await createStream(env, key, { name: text, metadata: { text } });
  assert.is(ok.name, text);
  assert.is((await env.call('GET', `/v1/streams/${ok.id}`, { key })).body.metadata.text, text);
});

t('Retry-After only on errors that waiting fixes', async ({ env }) => {
  const { key } = await env.newAccount({ credit: '0.5' });
  const res = await env.call('POST', '/v1/streams', { key });
  assertError(res, 402, 'insufficient_credit');
  assert.is(res.headers['retry-after'], undefined);
  assertError(await env.call('GET', '/v1/streams?limit=0', { key }), 400, 'invalid_request');
});

t('error responses are JSON', async ({ env }) => {
  const res = await env.call('GET', '/v1/streams');
  assert.match(String(res.headers['content-type']), /^application\/json/);
});

t.run();
