import * as assert from 'uvu/assert';
import { ManualClock } from '../../src/core/clock.js';
import { OutputsService } from '../../src/domains/engine/outputs/service.js';
import { Idempotency } from '../../src/domains/ledger/idempotency/service.js';
import { ApiError } from '../../src/core/errors.js';
import type { Lookup } from '../../src/platform/http/ssrf.js';
import { apiSuite, createTestApi, type ApiSuiteContext, type TestApi } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream, goLive } from '../helpers/streams.js';

const t = apiSuite('outputs: the restreaming outputs API');
// An account per test, trusted: up to 20 streams may wait to go live (2 for a new account).
t.before.each(async (ctx) => {
  const { id, key } = await ctx.env.newAccount({ trusted: true });
  ctx.key = key;
  ctx.accountId = id;
});

const OUTPUT_KEYS = [
  'bytes_sent',
  'connected_at',
  'created_at',
  'enabled',
  'id',
  'last_error',
  'name',
  'object',
  'status',
  'stream_id',
  'stream_key',
  'updated_at',
  'url',
];
/** A key as YouTube hands them out; never to appear in an answer. */
const KEY = 'abcd-efgh-ijkl-mnop-qrst';
/** A public address that needs no DNS (the test machine has none): nothing connects to it here. */
const URL_OK = 'rtmp://1.1.1.1/live2';

const outputs = (streamId: string) => `/v1/streams/${streamId}/outputs`;

async function newStream(ctx: ApiSuiteContext, key = ctx.key): Promise<string> {
  return (await createStream(ctx.env, key)).id as string;
}

async function create(env: TestApi, key: string, streamId: string, body: Record<string, unknown>) {
  const res = await env.call('POST', outputs(streamId), { key, body });
  assert.is(res.status, 201, res.text);
  return res.body;
}

const storedKey = async (env: TestApi, id: string): Promise<string> =>
  (await env.db.sql<{ stream_key: string }[]>`select stream_key from stream_outputs where id = ${id}`)[0]!.stream_key;

t(
  'round trip: create, list, get, patch, delete; the key masked in every answer, kept whole for the pusher',
  async (ctx) => {
    const { env, key } = ctx;
    const streamId = await newStream(ctx);
    const res = await env.call('POST', outputs(streamId), {
      key,
      body: { url: URL_OK, stream_key: KEY, name: 'YouTube' },
    });
    assert.is(res.status, 201, res.text);
    const o = res.body;
    assert.equal(Object.keys(o).sort(), OUTPUT_KEYS);
    assert.is(o.object, 'stream_output');
    assert.match(o.id, /^out_[a-z0-9]{20}$/);
    assert.is(o.stream_id, streamId);
    assert.is(o.name, 'YouTube');
    assert.is(o.url, URL_OK);
    assert.is(o.stream_key, '••••qrst');
    assert.is(o.enabled, true);
    assert.is(o.status, 'idle');
    assert.is(o.last_error, null);
    assert.is(o.connected_at, null);
    assert.is(o.bytes_sent, 0);
    assert.is(o.created_at, env.clock.now().toISOString());
    assert.is(o.updated_at, o.created_at);
    assert.not.ok(res.text.includes(KEY), 'the create answer does not show the key');
    assert.is(await storedKey(env, o.id), KEY);

    const list = await env.call('GET', outputs(streamId), { key });
    assert.is(list.status, 200, list.text);
    assert.equal(Object.keys(list.body).sort(), ['data', 'has_more', 'object']);
    assert.is(list.body.object, 'list');
    assert.is(list.body.has_more, false);
    assert.equal(list.body.data, [o]);
    assert.not.ok(list.text.includes(KEY));

    const got = await env.call('GET', `${outputs(streamId)}/${o.id}`, { key });
    assert.is(got.status, 200, got.text);
    assert.equal(got.body, o);

    // What the pusher writes; a change of name or `enabled` leaves it.
    await env.db.sql`
    update stream_outputs set status = 'errored', last_error = 'connection refused', bytes_sent = 1234,
      connected_at = ${env.clock.now()} where id = ${o.id}`;
    env.clock.advance(60);
    const renamed = await env.call('PATCH', `${outputs(streamId)}/${o.id}`, {
      key,
      body: { name: 'YouTube main', enabled: false },
    });
    assert.is(renamed.status, 200, renamed.text);
    assert.is(renamed.body.name, 'YouTube main');
    assert.is(renamed.body.enabled, false);
    assert.is(renamed.body.status, 'errored');
    assert.is(renamed.body.last_error, 'connection refused');
    assert.is(renamed.body.bytes_sent, 1234);
    assert.is(renamed.body.updated_at, env.clock.now().toISOString(), 'updated_at moves');
    assert.is(renamed.body.created_at, o.created_at);

    // A new key: back to idle for the pusher to connect again; the bytes already sent stay counted.
    env.clock.advance(60);
    const rekeyed = await env.call('PATCH', `${outputs(streamId)}/${o.id}`, {
      key,
      body: { stream_key: 'zyxw-vuts-rqpo-nmlk-9876' },
    });
    assert.is(rekeyed.status, 200, rekeyed.text);
    assert.is(rekeyed.body.stream_key, '••••9876');
    assert.is(rekeyed.body.status, 'idle');
    assert.is(rekeyed.body.last_error, null);
    assert.is(rekeyed.body.connected_at, null);
    assert.is(rekeyed.body.bytes_sent, 1234);
    assert.is(rekeyed.body.enabled, false, 'left out, unchanged');
    assert.is(await storedKey(env, o.id), 'zyxw-vuts-rqpo-nmlk-9876');

    // So does a new URL.
    await env.db.sql`update stream_outputs set status = 'active' where id = ${o.id}`;
    const moved = await env.call('PATCH', `${outputs(streamId)}/${o.id}`, {
      key,
      body: { url: 'rtmps://1.0.0.1:443/app' },
    });
    assert.is(moved.status, 200, moved.text);
    assert.is(moved.body.url, 'rtmps://1.0.0.1:443/app');
    assert.is(moved.body.status, 'idle');

    const del = await env.call('DELETE', `${outputs(streamId)}/${o.id}`, { key });
    assert.is(del.status, 204, del.text);
    assert.is(del.text, '');
    assertError(await env.call('GET', `${outputs(streamId)}/${o.id}`, { key }), 404, 'not_found');
    assertError(await env.call('DELETE', `${outputs(streamId)}/${o.id}`, { key }), 404, 'not_found');
    assert.equal((await env.call('GET', outputs(streamId), { key })).body.data, []);
  },
);

t('srt: a port is required, the key optional (null when none); short keys show no characters', async (ctx) => {
  const { env, key } = ctx;
  const streamId = await newStream(ctx);
  const srt = await create(env, key, streamId, { url: 'srt://1.1.1.1:9000' });
  assert.is(srt.stream_key, null);
  assert.is(srt.name, null);
  const withKey = await create(env, key, streamId, { url: 'srt://1.1.1.1:9000', stream_key: 'short', enabled: false });
  assert.is(withKey.stream_key, '••••', 'a key under 12 characters shows none of them');
  assert.is(withKey.enabled, false);
  // An srt output cannot become rtmp without a key.
  assertInvalidField(
    await env.call('PATCH', `${outputs(streamId)}/${srt.id}`, { key, body: { url: URL_OK } }),
    'stream_key',
  );
  const rtmp = await env.call('PATCH', `${outputs(streamId)}/${srt.id}`, {
    key,
    body: { url: URL_OK, stream_key: KEY },
  });
  assert.is(rtmp.status, 200, rtmp.text);
  assertInvalidField(
    await env.call('PATCH', `${outputs(streamId)}/${srt.id}`, { key, body: { stream_key: null } }),
    'stream_key',
  );
  const cleared = await env.call('PATCH', `${outputs(streamId)}/${withKey.id}`, { key, body: { stream_key: null } });
  assert.is(cleared.status, 200, cleared.text);
  assert.is(cleared.body.stream_key, null);
});

t(
  'bad URLs are 400 naming `url`: http, file, no port for srt, credentials, queries, private hosts, unresolvable names',
  async (ctx) => {
    const { env, key } = ctx;
    const streamId = await newStream(ctx);
    const bad: [string, RegExp][] = [
      ['http://1.1.1.1/live', /rtmp:\/\/, rtmps:\/\/ or srt:\/\//],
      ['https://1.1.1.1/live', /rtmp:\/\/, rtmps:\/\/ or srt:\/\//],
      ['file:///etc/passwd', /rtmp:\/\/, rtmps:\/\/ or srt:\/\//],
      ['rtmp:live', /host|rtmp/],
      ['not a url', /spaces/],
      ['a.rtmp.youtube.com/live2', /absolute/],
      ['srt://1.1.1.1', /port/],
      ['srt://1.1.1.1:9000?streamid=x', /query/],
      ['srt://1.1.1.1:9000/path', /path/],
      ['rtmp://user:pw@1.1.1.1/live', /user name or password/],
      [`rtmp://1.1.1.1/live?key=${KEY}`, /query/],
      ['rtmp://1.1.1.1/live#x', /fragment/],
      ['rtmp://1.1.1.1', /application/],
      ['rtmp://1.1.1.1:0/live', /port 0/],
      ['rtmp://10.0.0.7/live', /not a public address \(private\).*allow_private_outputs/],
      ['rtmp://127.0.0.1/live', /loopback/],
      ['rtmp://[::1]/live', /loopback/],
      ['rtmp://169.254.169.254/live', /linkLocal/],
      ['rtmp://0.0.0.0/live', /unspecified/],
      ['rtmp://localhost/live', /loopback name/],
      ['rtmp://LOCALHOST./live', /loopback name/],
      ['rtmp://nothing.invalid/live', /does not resolve/],
      ['rtmp://a%2fb/live', /host name or an IP address/],
      [`rtmp://1.1.1.1/${'a'.repeat(2034)}`, /2048/],
    ];
    for (const [url, why] of bad) {
      const res = await env.call('POST', outputs(streamId), { key, body: { url, stream_key: KEY } });
      assertInvalidField(res, 'url');
      assert.match(res.body.error.message, why, `${url}: ${res.body.error.message}`);
    }
    assert.equal((await env.call('GET', outputs(streamId), { key })).body.data, [], 'nothing was saved');
    // PATCH checks the same way.
    const o = await create(env, key, streamId, { url: URL_OK, stream_key: KEY });
    assertInvalidField(
      await env.call('PATCH', `${outputs(streamId)}/${o.id}`, { key, body: { url: 'rtmp://192.168.1.10/live' } }),
      'url',
    );
    const exact = `rtmp://1.1.1.1/${'a'.repeat(2048 - 'rtmp://1.1.1.1/'.length)}`;
    assert.is(exact.length, 2048);
    assert.is((await env.call('POST', outputs(streamId), { key, body: { url: exact, stream_key: KEY } })).status, 201);
  },
);

t('bad keys and fields are 400 naming the field; the key is never repeated', async (ctx) => {
  const { env, key } = ctx;
  const streamId = await newStream(ctx);
  const long = 'k'.repeat(10_000);
  const res = await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: long } });
  assertInvalidField(res, 'stream_key');
  assert.not.ok(res.text.includes('kkkkkkkk'), 'the key is not echoed');
  assertInvalidField(
    await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: 'k'.repeat(513) } }),
    'stream_key',
  );
  assert.is(
    (await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: 'k'.repeat(512) } })).status,
    201,
    '512 characters are fine',
  );
  for (const k of ['', 'has space', 'tab\there', 'é-accent', 'new\nline']) {
    const r = await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: k } });
    assertInvalidField(r, 'stream_key');
  }
  assertInvalidField(await env.call('POST', outputs(streamId), { key, body: { url: URL_OK } }), 'stream_key');
  assertInvalidField(await env.call('POST', outputs(streamId), { key, body: { stream_key: KEY } }), 'url');
  assertInvalidField(
    await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: KEY, colour: 'red' } }),
    'colour',
  );
  assertInvalidField(
    await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: KEY, name: 'n'.repeat(101) } }),
    'name',
  );
  assertInvalidField(
    await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: KEY, enabled: 'yes' } }),
    'enabled',
  );
  assertInvalidField(
    await env.call('POST', `${outputs(streamId)}?limit=2`, { key, body: { url: URL_OK, stream_key: KEY } }),
    'limit',
  );
  // Read-only fields are refused by name, on create and on patch.
  for (const field of [
    'status',
    'bytes_sent',
    'last_error',
    'connected_at',
    'id',
    'object',
    'stream_id',
    'created_at',
  ]) {
    assertInvalidField(
      await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: KEY, [field]: 'active' } }),
      field,
    );
  }
  const o = await create(env, key, streamId, { url: URL_OK, stream_key: KEY });
  for (const [field, value] of [
    ['status', 'active'],
    ['bytes_sent', 0],
    ['last_error', null],
    ['updated_at', '2026-01-01T00:00:00Z'],
  ] as const) {
    assertInvalidField(
      await env.call('PATCH', `${outputs(streamId)}/${o.id}`, { key, body: { [field]: value } }),
      field,
    );
  }
  const empty = await env.call('PATCH', `${outputs(streamId)}/${o.id}`, { key, body: {} });
  assertError(empty, 400, 'invalid_request');
  const patchLong = await env.call('PATCH', `${outputs(streamId)}/${o.id}`, { key, body: { stream_key: long } });
  assertInvalidField(patchLong, 'stream_key');
  assert.not.ok(patchLong.text.includes('kkkkkkkk'));
  assertError(
    await env.call('POST', outputs(streamId), { body: { url: URL_OK, stream_key: KEY } }),
    401,
    'unauthorized',
  );
});

t(
  'at most 5 per stream: the 6th is 429 limit_stream_outputs, also when created at once; deleting frees a place',
  async (ctx) => {
    const { env, key } = ctx;
    const streamId = await newStream(ctx);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await create(env, key, streamId, { url: URL_OK, stream_key: `${KEY}-${i}` }));
    const sixth = await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: KEY } });
    assertError(sixth, 429, 'limit_stream_outputs');
    assert.equal(sixth.body.error.details, { limit: 5, current: 5 });
    assert.is(sixth.headers['retry-after'], undefined, 'waiting does not fix it');
    // Another stream has its own five.
    const other = await newStream(ctx);
    await create(env, key, other, { url: URL_OK, stream_key: KEY });
    assert.is((await env.call('DELETE', `${outputs(streamId)}/${made[0].id}`, { key })).status, 204);
    await create(env, key, streamId, { url: URL_OK, stream_key: KEY });

    const racing = await newStream(ctx);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        env.call('POST', outputs(racing), { key, body: { url: URL_OK, stream_key: `${KEY}-${i}` } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    assert.equal(statuses, [...Array(5).fill(201), ...Array(7).fill(429)], results.map((r) => r.text).join('\n'));
    assert.is((await env.call('GET', outputs(racing), { key })).body.data.length, 5);
  },
);

t("another account's stream, unknown and malformed ids: 404 not_found", async (ctx) => {
  const { env, key } = ctx;
  const mine = await newStream(ctx);
  const o = await create(env, key, mine, { url: URL_OK, stream_key: KEY });
  const stranger = await env.newAccount();
  const path = `${outputs(mine)}/${o.id}`;
  assertError(await env.call('GET', outputs(mine), { key: stranger.key }), 404, 'not_found');
  assertError(await env.call('GET', path, { key: stranger.key }), 404, 'not_found');
  assertError(
    await env.call('POST', outputs(mine), { key: stranger.key, body: { url: URL_OK, stream_key: KEY } }),
    404,
    'not_found',
  );
  // A stranger learns nothing from validation either: an unknown stream is 404 before a bad URL is 400.
  assertError(
    await env.call('POST', outputs(mine), { key: stranger.key, body: { url: 'rtmp://10.0.0.1/x', stream_key: KEY } }),
    404,
    'not_found',
  );
  assertError(await env.call('PATCH', path, { key: stranger.key, body: { enabled: false } }), 404, 'not_found');
  assertError(await env.call('DELETE', path, { key: stranger.key }), 404, 'not_found');
  assert.is((await env.call('GET', path, { key })).body.enabled, true, 'untouched');
  // The output of one stream is not found under another of the same account.
  const second = await newStream(ctx);
  assertError(await env.call('GET', `${outputs(second)}/${o.id}`, { key }), 404, 'not_found');
  assertError(await env.call('DELETE', `${outputs(second)}/${o.id}`, { key }), 404, 'not_found');
  for (const id of ['out_x', 'out_AAAAAAAAAAAAAAAAAAAA', 'whk_4k2m9q7x1c4v6b0n5z8f', 'x'.repeat(300), '%00']) {
    assertError(await env.call('GET', `${outputs(mine)}/${id}`, { key }), 404, 'not_found');
    assertError(await env.call('PATCH', `${outputs(mine)}/${id}`, { key, body: { enabled: false } }), 404, 'not_found');
  }
  for (const id of ['str_x', 'str_aaaaaaaaaaaaaaaaaaaa', 'nope']) {
    assertError(await env.call('GET', outputs(id), { key }), 404, 'not_found');
    assertError(await env.call('POST', outputs(id), { key, body: { url: URL_OK, stream_key: KEY } }), 404, 'not_found');
  }
});

t(
  'while live: create and patch work; once ended or cancelled: 409 stream_ended, reads and delete still work',
  async (ctx) => {
    const { env, key, accountId } = ctx;
    const streamId = await newStream(ctx);
    const before = await create(env, key, streamId, { url: URL_OK, stream_key: KEY });
    await goLive(env, accountId, streamId);
    const during = await create(env, key, streamId, { url: 'srt://1.1.1.1:9000', stream_key: KEY });
    const patched = await env.call('PATCH', `${outputs(streamId)}/${before.id}`, { key, body: { name: 'Live' } });
    assert.is(patched.status, 200, patched.text);

    assert.is((await env.call('DELETE', `/v1/streams/${streamId}`, { key })).status, 200);
    const refused = await env.call('POST', outputs(streamId), { key, body: { url: URL_OK, stream_key: KEY } });
    assertError(refused, 409, 'stream_ended');
    assert.equal(refused.body.error.details, { status: 'ended' });
    assertError(
      await env.call('PATCH', `${outputs(streamId)}/${before.id}`, { key, body: { enabled: false } }),
      409,
      'stream_ended',
    );
    assert.is((await env.call('GET', outputs(streamId), { key })).body.data.length, 2);
    assert.is((await env.call('GET', `${outputs(streamId)}/${during.id}`, { key })).status, 200);
    assert.is((await env.call('DELETE', `${outputs(streamId)}/${during.id}`, { key })).status, 204);

    const cancelled = await newStream(ctx);
    assert.is((await env.call('DELETE', `/v1/streams/${cancelled}`, { key })).status, 200);
    const c = await env.call('POST', outputs(cancelled), { key, body: { url: URL_OK, stream_key: KEY } });
    assertError(c, 409, 'stream_ended');
    assert.equal(c.body.error.details, { status: 'cancelled' });
  },
);

t('Idempotency-Key: a retry returns the first output, a different body is 422', async (ctx) => {
  const { env, key } = ctx;
  const streamId = await newStream(ctx);
  const headers = { 'idempotency-key': 'add-youtube-1' };
  const body = { url: URL_OK, stream_key: KEY };
  const first = await env.call('POST', outputs(streamId), { key, body, headers });
  assert.is(first.status, 201, first.text);
  const again = await env.call('POST', outputs(streamId), { key, body, headers });
  assert.is(again.status, 201, again.text);
  assert.equal(again.body, first.body);
  assert.is(again.headers['idempotent-replayed'], 'true');
  assert.is((await env.call('GET', outputs(streamId), { key })).body.data.length, 1);
  assertError(
    await env.call('POST', outputs(streamId), { key, body: { ...body, name: 'other' }, headers }),
    422,
    'idempotency_key_reused',
  );
});

t('a pending account cannot add outputs (403 account_pending)', async (ctx) => {
  const { env, key } = ctx;
  const streamId = await newStream(ctx);
  const pending = await env.newAccount({ pending: true });
  const res = await env.call('POST', outputs(streamId), { key: pending.key, body: { url: URL_OK, stream_key: KEY } });
  assertError(res, 403, 'account_pending');
  assert.is((await env.call('GET', outputs(streamId), { key })).body.data.length, 0);
});

t(
  'allow_private_outputs: private and loopback hosts accepted; unspecified and non-rtmp schemes still refused',
  async () => {
    const env = await createTestApi({ allow_private_outputs: true });
    try {
      const { key } = await env.newAccount();
      const streamId = (await createStream(env, key)).id;
      for (const url of [
        'rtmp://127.0.0.1:1935/live',
        'rtmp://localhost/live',
        'srt://10.0.0.7:9000',
        'rtmps://[::1]/app',
      ]) {
        const res = await env.call('POST', outputs(streamId), { key, body: { url, stream_key: KEY } });
        assert.is(res.status, 201, `${url}: ${res.text}`);
      }
      for (const url of ['rtmp://0.0.0.0/live', 'http://127.0.0.1/live', 'file:///tmp/x']) {
        assertInvalidField(await env.call('POST', outputs(streamId), { key, body: { url, stream_key: KEY } }), 'url');
      }
    } finally {
      await env.close();
    }
  },
);

t('host names: every address must be public; what a name resolves to is not told', async (ctx) => {
  const { env } = ctx;
  const dns: Record<string, string[]> = {
    'a.rtmp.youtube.com': ['142.250.74.110', '2a00:1450:4007:80b::200e'],
    'inside.example.com': ['10.1.2.3'],
    'mixed.example.com': ['142.250.74.110', '192.168.0.9'],
  };
  const lookup: Lookup = async (host) => {
    const list = dns[host];
    if (!list) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const service = new OutputsService({
    sql: env.db.sql,
    clock: new ManualClock(env.clock.now()),
    idempotency: new Idempotency(env.db.sql, env.clock, 'test'),
    policy: { allowPrivate: false, lookup },
  });
  const account = await env.accounts.get(ctx.accountId);
  const streamId = await newStream(ctx);
  const made = await service.create(
    account,
    streamId,
    { url: 'rtmp://a.rtmp.youtube.com/live2', stream_key: KEY },
    undefined,
  );
  assert.is(made.output.url, 'rtmp://a.rtmp.youtube.com/live2');
  for (const [host, why] of [
    ['inside.example.com', /resolves to a private or reserved address.*allow_private_outputs/],
    ['mixed.example.com', /resolves to a private or reserved address.*allow_private_outputs/],
    ['gone.example.com', /does not resolve \(ENOTFOUND\)/],
  ] as const) {
    const err = await service
      .create(account, streamId, { url: `rtmp://${host}/live`, stream_key: KEY }, undefined)
      .then(
        () => null,
        (e: unknown) => e,
      );
    assert.instance(err, ApiError);
    const e = err as ApiError;
    assert.is(e.code, 'invalid_request');
    assert.equal(e.details, { field: 'url' });
    assert.match(e.message, why);
    assert.not.match(e.message, /10\.1\.2\.3|192\.168/, 'the internal address is not told');
  }
});

t.run();
