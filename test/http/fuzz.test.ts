/**
 * Generated junk against every endpoint, reproducible from SEED: whatever arrives, the answer is a
 * 2xx for valid input or a 4xx in the spec's error shape whose code the OpenAPI description lists
 * for that operation and status; never a 5xx.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUS_OF, type ErrorCode } from '../../src/core/errors.js';
import { createTestApi, type Reply, type TestApi } from '../helpers/api.js';
import { prng } from '../helpers/random.js';
import { createStream } from '../helpers/streams.js';

const SEED = 0x5eed_1234;
const PER_ENDPOINT = 400;

class Gen {
  constructor(readonly rnd: () => number) {}
  int(min: number, max: number): number {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.rnd() * items.length)] as T;
  }
  string(max = 40): string {
    const alphabets = [
      'abcdefghijklmnopqrstuvwxyz',
      'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-',
      ' \t\n\r',
      '\u0000\u0001\u001f\u007f',
      '"\\/\'`<>{}[]%&?#=+;:,.',
      'éüß直播🎥\u200b\u202e\ufeff',
      '\ud800\udc00\udfff',
    ];
    let out = '';
    const n = this.int(0, max);
    for (let i = 0; i < n; i++) {
      const alphabet = this.pick(alphabets);
      out += alphabet[this.int(0, alphabet.length - 1)];
    }
    return out;
  }
  /** Any JSON-ish value, nested up to `depth`. */
  value(depth = 3): unknown {
    const kind = this.int(0, depth > 0 ? 14 : 10);
    switch (kind) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return this.int(-5, 5000);
      case 3:
        return this.pick([0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 480, 720, 1080, 3650, 3651, 100, 101]);
      case 4:
        return this.string();
      case 5:
        return this.pick([
          '',
          ' ',
          'true',
          'false',
          'null',
          '720',
          '1080',
          'abr_basic',
          'passthrough',
          '2026-01-01T00:00:00Z',
          'example.com',
        ]);
      case 6:
        return 'x'.repeat(this.pick([99, 100, 101, 255, 256, 2048, 5000, 30_000]));
      case 7:
        return this.string(300);
      case 8:
        return [];
      case 9:
        return {};
      case 10:
        return this.pick(['__proto__', 'constructor', 'toString', 'hasOwnProperty']);
      case 11:
        return Array.from({ length: this.int(1, 5) }, () => this.value(depth - 1));
      case 12:
        return Object.fromEntries(Array.from({ length: this.int(1, 5) }, () => [this.key(), this.value(depth - 1)]));
      case 13: {
        let v: unknown = this.value(0);
        for (let i = 0; i < this.int(10, 200); i++) v = this.chance(0.5) ? [v] : { a: v };
        return v;
      }
      default:
        return { __proto__: this.value(depth - 1), constructor: { prototype: { polluted: true } } };
    }
  }
  key(): string {
    return this.chance(0.6)
      ? this.pick([
          ...CREATE_FIELDS,
          ...PLAYER_FIELDS,
          'colour',
          '',
          ' name',
          'NAME',
          '__proto__',
          'constructor',
          'status',
          'id',
        ])
      : this.string(20);
  }
}

const CREATE_FIELDS = [
  'name',
  'profile',
  'max_resolution',
  'record',
  'recording_retention_days',
  'metadata',
  'player',
  'replay',
  'latency_mode',
];
const PLAYER_FIELDS = [
  'show_name',
  'require_viewer_token',
  'enabled',
  'allowed_domains',
  'watch_minutes_limit',
  'closed_at',
];
const PATCH_FIELDS = ['name', 'metadata', 'player', 'chat', 'latency_mode'];
const BAN_FIELDS = ['viewer_id', 'viewer_id', 'message_id'];
const CHAT_POST_FIELDS = ['text', 'text', 'nickname', 'nickname', 'client_id', 'client_id', 'session_token'];
const MODERATOR_FIELDS = ['name', 'name', 'name', 'viewer_id', 'active_days'];
const OUTPUT_FIELDS = ['url', 'url', 'url', 'url', 'url', 'stream_key', 'name', 'enabled'];

/** A body: valid-ish objects with junk in places, junk values, or raw text that is not JSON at all. */
function body(g: Gen, fields: string[]): { payload?: string; contentType?: string } {
  const roll = g.int(0, 9);
  if (roll <= 4) {
    const obj: Record<string, unknown> = {};
    for (const f of fields) if (g.chance(0.3)) obj[f] = validValue(g, f);
    const junkCount = g.int(0, 2);
    for (let i = 0; i < junkCount; i++) {
      const f = g.chance(0.7) ? g.pick(fields) : g.key();
      if (f === 'player' && g.chance(0.5))
        obj.player = { [g.chance(0.7) ? g.pick(PLAYER_FIELDS) : g.key()]: g.value(2) };
      else obj[f] = g.value();
    }
    return { payload: JSON.stringify(obj), contentType: contentType(g) };
  }
  if (roll === 5) return { payload: JSON.stringify(g.value()), contentType: contentType(g) };
  if (roll === 6) return { payload: g.pick(RAW_PAYLOADS)(g), contentType: contentType(g) };
  if (roll === 7) return { payload: 'x'.repeat(g.pick([65_537, 1 << 20])), contentType: 'application/json' };
  if (roll === 8) return { payload: g.string(200), contentType: contentType(g) };
  return {};
}

function validValue(g: Gen, field: string): unknown {
  switch (field) {
    case 'name':
      return g.pick([null, '', 'Town hall', 'Ms Rivera', 'x'.repeat(100)]);
    case 'profile':
      return g.pick(['abr_basic', 'passthrough']);
    case 'latency_mode':
      return g.pick(['standard', 'low']);
    case 'max_resolution':
      return g.pick([480, 720]);
    case 'record':
    case 'replay':
      return g.chance(0.5);
    case 'recording_retention_days':
      return g.pick([null, 1, 30, 3650]);
    case 'metadata':
      return g.pick([null, {}, { a: 1 }, { nested: { list: [1, 'two', null] } }]);
    case 'player':
      return g.pick([
        {},
        { show_name: false },
        { enabled: true, allowed_domains: ['example.com'] },
        { watch_minutes_limit: null },
      ]);
    case 'text':
      return g.pick(['hello', ' spaced  out ', 'x'.repeat(500), 'é🎉']);
    case 'nickname':
      return g.pick(['Bob', 'x'.repeat(40), 'Zoë']);
    case 'client_id':
      return g.pick(['client-fuzz-1', `client-fuzz-${g.int(0, 99)}`, 'x'.repeat(64)]);
    case 'session_token':
      return g.pick(['forged', 'a.b.c']);
    case 'viewer_id':
      return g.pick(['pupil-1', 'x'.repeat(64), 'é', `v${g.int(0, 3)}`]);
    case 'message_id':
      return 'msg_00000000000000000000';
    case 'active_days':
      return g.pick([1, 7, 30]);
    case 'url':
      return g.pick([
        'srt://1.1.1.1:9000',
        'srt://1.1.1.1:9000',
        'srt://[2606:4700:4700::1111]:9000',
        'rtmp://1.1.1.1/live2',
        'rtmp://10.0.0.1/live',
        'rtmp://nothing.invalid/live',
        'http://1.1.1.1/',
        `rtmp://1.1.1.1/${'a'.repeat(2040)}`,
      ]);
    case 'stream_key':
      return g.pick(['abcd-efgh-ijkl-mnop', 'k', 'x'.repeat(512)]);
    case 'enabled':
      return g.chance(0.5);
    default:
      return null;
  }
}

const RAW_PAYLOADS: ((g: Gen) => string)[] = [
  () => '{',
  () => '}',
  () => '{"name":',
  () => '{"name":"x",}',
  () => "{'name':'x'}",
  () => '{"name":"x"}{"name":"y"}',
  () => '\ufeff{}',
  () => '{"name":"\\ud800"}',
  () => '{"metadata":{"a":"\\u0000"}}',
  () => '{"name":"\\u0000"}',
  () => '{"metadata":{"\\u0000":1}}',
  () => '{"name":"\\x41"}',
  () => '{"record":tru}',
  () => 'nul',
  () => 'undefined',
  () => 'NaN',
  () => '{"max_resolution":1e400}',
  () => '{"recording_retention_days":-0}',
  () => '{"name":"a","name":"b"}',
  () => '{"__proto__":{"record":false}}',
  () => '{"player":{"__proto__":{"show_name":false}}}',
  () => '{"metadata":{"__proto__":{"x":1}}}',
  () => '['.repeat(5000) + ']'.repeat(5000),
  () => '{"metadata":' + '{"a":'.repeat(3000) + '1' + '}'.repeat(3000) + '}',
  () => '{"metadata":' + '['.repeat(400) + ']'.repeat(400) + '}',
  // As deep as fits in 64 KB: nothing on the way may recurse itself to death.
  () => '['.repeat(32_000) + ']'.repeat(32_000),
  () => '{"metadata":' + '{"a":'.repeat(12_000) + '1' + '}'.repeat(12_001),
  () => '{"player":{"allowed_domains":' + '['.repeat(30_000) + ']'.repeat(30_000) + '}}',
  (g) => Buffer.from(Array.from({ length: g.int(1, 64) }, () => g.int(0, 255))).toString('latin1'),
  (g) => JSON.stringify({ name: g.string(100) }),
  (g) => JSON.stringify({ metadata: { s: g.string(2000) } }),
];

function contentType(g: Gen): string | undefined {
  return g.pick([
    'application/json',
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'application/json; charset=latin1',
    'application/merge-patch+json',
    'application/vnd.api+json',
    'text/plain',
    'text/json',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=----x',
    'application/octet-stream',
    '*/*',
    '',
    ';',
    ';;;',
    'application/',
    '/json',
    'application/json, text/plain',
    'json',
    undefined,
  ]);
}

/** Path segments that are not stream ids of this account; some are not even decodable. */
function weirdId(g: Gen, known: string[]): string {
  if (g.chance(0.35)) return g.pick(known);
  return g.pick([
    () => g.pick(known),
    () => 'str_aaaaaaaaaaaaaaaaaaaa',
    () => 'str_' + 'A'.repeat(20),
    () => 'str_',
    () => 'str_' + 'a'.repeat(21),
    () => enc(g.string(30)) || 'x',
    () => '%00',
    () => '%zz',
    () => '%E0%A4%A',
    () => '%C0%AF',
    () => '%ED%A0%80',
    () => '%2F',
    () => 'a%2Fb',
    () => "'%20or%201=1--",
    () => 'x'.repeat(g.pick([100, 101, 199, 200, 201, 300, 2000])),
    () => enc('str_☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃'),
    () => String(g.int(0, 1e9)),
  ])();
}

function query(g: Gen, known: string[]): string {
  const parts: string[] = [];
  const n = g.int(0, 4);
  for (let i = 0; i < n; i++) {
    const k = g.pick([
      'limit',
      'limit',
      'status',
      'starting_after',
      'limit[]',
      'limit[a]',
      'colour',
      '',
      '%zz',
      'status',
      'after',
    ]);
    const v = g.pick([
      () => String(g.int(-2, 102)),
      () =>
        g.pick([
          '',
          '0',
          '1',
          '20',
          '100',
          '101',
          '1.5',
          '1e2',
          'abc',
          '-0',
          '0x10',
          ' 5',
          '5 ',
          'NaN',
          'Infinity',
          '%zz',
          '%00',
        ]),
      () => g.pick(['pending', 'live', 'ended', 'expired', 'cancelled', 'PENDING', 'all', '']),
      () => g.pick(known),
      () => enc(g.string(20)),
      () => 'x'.repeat(g.int(0, 3000)),
    ])();
    parts.push(g.chance(0.1) ? k : `${k}=${v}`);
  }
  return parts.length ? `?${parts.join(g.chance(0.9) ? '&' : ';')}` : '';
}

function headers(g: Gen, apiKey: string, otherKey: string): Record<string, string> {
  const h: Record<string, string> = {};
  const auth = g.int(0, 19);
  if (auth < 15) h.authorization = `Bearer ${apiKey}`;
  else if (auth === 15) h.authorization = `Bearer ${otherKey}`;
  else if (auth === 16)
    h.authorization = g.pick(['', 'Bearer', 'Basic abc', `bearer  ${apiKey}  `, `Bearer ${apiKey},Bearer ${apiKey}`]);
  else if (auth === 17) h.authorization = `Bearer svc_live_${g.string(40).replace(/[^\x21-\x7e]/g, 'a')}`;
  else if (auth === 18) h.authorization = `Bearer ${'svc_live_'.padEnd(g.pick([199, 200, 201, 8000]), 'z')}`;
  if (g.chance(0.3))
    h['idempotency-key'] = g.pick([
      () => '',
      () => 'k',
      () => 'k'.repeat(255),
      () => 'k'.repeat(256),
      () => 'k'.repeat(5000),
      () => latin1(g.string(30)),
      () => `fuzz-${g.int(0, 5)}`,
    ])();
  if (g.chance(0.1)) h['x-request-id'] = latin1(g.string(30));
  if (g.chance(0.1)) h.accept = g.pick(['text/html', '*/*', 'application/xml', '', 'application/json;q=0']);
  if (g.chance(0.05)) h.origin = 'https://elsewhere.example';
  if (g.chance(0.05)) h['content-encoding'] = g.pick(['gzip', 'br', 'identity', 'x']);
  if (g.chance(0.05)) h['x-http-method-override'] = 'DELETE';
  return h;
}

/** Every UTF-8 byte percent-encoded (an unpaired surrogate goes out as U+FFFD, as a browser sends it). */
const enc = (s: string): string =>
  [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Header values are bytes: keep what an HTTP client could actually send. */
const latin1 = (s: string): string => s.replace(/[^\x20-\x7e\xa0-\xff]/g, '');

interface Endpoint {
  name: string;
  /** The operation in the OpenAPI description, or null for GET /. */
  op: string | null;
  request(
    g: Gen,
    ctx: Ctx,
  ): { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; body?: { payload?: string; contentType?: string } };
}

interface Ctx {
  known: string[];
  /** A stream no other endpoint's requests end (outputs are added only while pending or live). */
  open: string;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /v1/streams',
    op: 'post /v1/streams',
    request: (g) => ({ method: 'POST', url: '/v1/streams', body: body(g, CREATE_FIELDS) }),
  },
  {
    name: 'GET /v1/streams',
    op: 'get /v1/streams',
    request: (g, c) => ({ method: 'GET', url: `/v1/streams${query(g, c.known)}` }),
  },
  {
    name: 'GET /v1/streams/{id}',
    op: 'get /v1/streams/{id}',
    request: (g, c) => ({ method: 'GET', url: `/v1/streams/${weirdId(g, c.known)}${query(g, c.known)}` }),
  },
  {
    name: 'PATCH /v1/streams/{id}',
    op: 'patch /v1/streams/{id}',
    request: (g, c) => ({ method: 'PATCH', url: `/v1/streams/${weirdId(g, c.known)}`, body: body(g, PATCH_FIELDS) }),
  },
  {
    name: 'DELETE /v1/streams/{id}',
    op: 'delete /v1/streams/{id}',
    request: (g, c) => ({
      method: 'DELETE',
      url: `/v1/streams/${weirdId(g, c.known)}`,
      body: g.chance(0.5) ? body(g, CREATE_FIELDS) : undefined,
    }),
  },
  {
    name: 'POST /v1/streams/{id}/stream-key',
    op: 'post /v1/streams/{id}/stream-key',
    request: (g, c) => ({
      method: 'POST',
      url: `/v1/streams/${weirdId(g, c.known)}/stream-key`,
      body: g.chance(0.5) ? body(g, CREATE_FIELDS) : undefined,
    }),
  },
  {
    name: 'GET /v1/streams/{id}/viewers',
    op: 'get /v1/streams/{id}/viewers',
    request: (g, c) => ({ method: 'GET', url: `/v1/streams/${weirdId(g, c.known)}/viewers${query(g, c.known)}` }),
  },
  {
    name: 'GET /v1/streams/{id}/attendance',
    op: 'get /v1/streams/{id}/attendance',
    request: (g, c) => ({ method: 'GET', url: `/v1/streams/${weirdId(g, c.known)}/attendance${query(g, c.known)}` }),
  },
  {
    name: 'POST /v1/streams/{id}/chat/bans',
    op: 'post /v1/streams/{id}/chat/bans',
    request: (g, c) => ({
      method: 'POST',
      url: `/v1/streams/${weirdId(g, c.known)}/chat/bans`,
      body: body(g, BAN_FIELDS),
    }),
  },
  {
    name: 'GET /v1/streams/{id}/chat/messages',
    op: 'get /v1/streams/{id}/chat/messages',
    request: (g, c) => ({ method: 'GET', url: `/v1/streams/${weirdId(g, c.known)}/chat/messages${query(g, c.known)}` }),
  },
  {
    name: 'POST /v1/embed/{id}/chat/messages',
    op: 'post /v1/embed/{id}/chat/messages',
    request: (g, c) => ({
      method: 'POST',
      url: `/v1/embed/${weirdId(g, c.known)}/chat/messages`,
      body: body(g, CHAT_POST_FIELDS),
    }),
  },
  {
    name: 'POST /v1/streams/{id}/chat/moderators',
    op: 'post /v1/streams/{id}/chat/moderators',
    request: (g, c) => ({
      method: 'POST',
      url: `/v1/streams/${weirdId(g, c.known)}/chat/moderators`,
      body: body(g, MODERATOR_FIELDS),
    }),
  },
  {
    name: 'GET /v1/streams/{id}/chat/moderators',
    op: 'get /v1/streams/{id}/chat/moderators',
    request: (g, c) => ({
      method: 'GET',
      url: `/v1/streams/${weirdId(g, c.known)}/chat/moderators${query(g, c.known)}`,
    }),
  },
  {
    name: 'POST /v1/streams/{id}/outputs',
    op: 'post /v1/streams/{id}/outputs',
    request: (g, c) => ({
      method: 'POST',
      url: `/v1/streams/${g.chance(0.5) ? c.open : weirdId(g, c.known)}/outputs${g.chance(0.8) ? '' : query(g, c.known)}`,
      body: body(g, OUTPUT_FIELDS),
    }),
  },
  {
    name: 'GET /v1/streams/{id}/outputs',
    op: 'get /v1/streams/{id}/outputs',
    request: (g, c) => ({ method: 'GET', url: `/v1/streams/${weirdId(g, c.known)}/outputs${query(g, c.known)}` }),
  },
  { name: 'GET /', op: null, request: (g, c) => ({ method: 'GET', url: `/${query(g, c.known)}` }) },
];

/** A repeated ban, or an invitation of a viewer already a moderator, answers the existing one with 200. */
const SUCCESS: Record<string, number | number[]> = {
  'post /v1/streams': 201,
  'get /v1/streams': 200,
  'get /v1/streams/{id}': 200,
  'patch /v1/streams/{id}': 200,
  'delete /v1/streams/{id}': 200,
  'post /v1/streams/{id}/stream-key': 200,
  'get /v1/streams/{id}/viewers': 200,
  'get /v1/streams/{id}/attendance': 200,
  'post /v1/streams/{id}/chat/bans': [201, 200],
  'get /v1/streams/{id}/chat/messages': 200,
  'post /v1/embed/{id}/chat/messages': 201,
  'post /v1/streams/{id}/chat/moderators': [201, 200],
  'get /v1/streams/{id}/chat/moderators': 200,
  'post /v1/streams/{id}/outputs': 201,
  'get /v1/streams/{id}/outputs': 200,
};

const OBJECT_OF: Record<string, string> = {
  'post /v1/streams': 'stream',
  'get /v1/streams': 'list',
  'get /v1/streams/{id}': 'stream',
  'patch /v1/streams/{id}': 'stream',
  'delete /v1/streams/{id}': 'stream',
  'post /v1/streams/{id}/stream-key': 'stream',
  'get /v1/streams/{id}/viewers': 'viewer_series',
  'get /v1/streams/{id}/attendance': 'list',
  'post /v1/streams/{id}/chat/bans': 'ban',
  'get /v1/streams/{id}/chat/messages': 'list',
  'post /v1/embed/{id}/chat/messages': 'chat_message',
  'post /v1/streams/{id}/chat/moderators': 'moderator',
  'get /v1/streams/{id}/chat/moderators': 'list',
  'post /v1/streams/{id}/outputs': 'stream_output',
  'get /v1/streams/{id}/outputs': 'list',
};

type Doc = { paths: Record<string, Record<string, { responses: Record<string, { 'x-error-codes'?: string[] }> }>> };

const t = suite<{ env: TestApi; key: string; otherKey: string; ctx: Ctx; doc: Doc }>('http: fuzz');
t.before(async (c) => {
  c.env = await createTestApi({ limits: { trusted: { pending_streams: 10_000, creations_per_hour: 10_000 } } });
  const { key } = await c.env.newAccount({ trusted: true });
  c.key = key;
  const other = await c.env.newAccount();
  c.otherKey = other.key;
  c.ctx = { known: [], open: (await createStream(c.env, key, { name: 'outputs' })).id };
  for (let i = 0; i < 8; i++) c.ctx.known.push((await createStream(c.env, key, { name: `known ${i}` })).id);
  c.ctx.known.push((await createStream(c.env, other.key)).id);
  c.doc = (await c.env.call('GET', '/openapi.json')).body as Doc;
});
t.after(async (c) => {
  await c.env.close();
});

for (const [index, endpoint] of ENDPOINTS.entries()) {
  t(
    `${endpoint.name}: ${PER_ENDPOINT} generated requests, never a 5xx, errors in the spec's shape`,
    async ({ env, key, otherKey, ctx, doc }) => {
      const g = new Gen(prng(SEED + index));
      const statuses = new Map<number, number>();
      for (let i = 0; i < PER_ENDPOINT; i++) {
        const req = endpoint.request(g, ctx);
        const h = headers(g, key, otherKey);
        if (req.body?.contentType !== undefined) h['content-type'] = req.body.contentType;
        const where = `#${i} ${req.method} ${req.url.slice(0, 200)} headers=${JSON.stringify(h).slice(0, 300)} payload=${JSON.stringify(req.body?.payload?.slice(0, 300))}`;
        let res: Reply;
        try {
          res = await env.call(req.method, req.url, { headers: h, payload: req.body?.payload });
        } catch (err) {
          assert.unreachable(`${where}: inject threw ${String(err)}`);
          return;
        }
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        check(res, endpoint, doc, where);
        if (res.status === 201 && endpoint.op === 'post /v1/streams') ctx.known.push(res.body.id);
      }
      // FUZZ_STATS=1 prints how the answers spread, to tune the generators.
      if (process.env.FUZZ_STATS) console.log(endpoint.name, JSON.stringify([...statuses].sort()));
      // The generator reaches both outcomes for operations that can succeed.
      const ok = endpoint.op ? [SUCCESS[endpoint.op] ?? 200].flat() : [200];
      assert.ok(
        ok.some((status) => (statuses.get(status) ?? 0) > 0),
        `${endpoint.name}: some valid requests succeeded (${JSON.stringify([...statuses])})`,
      );
      if (endpoint.op)
        assert.ok(
          [...statuses.keys()].some((s) => s >= 400),
          `${endpoint.name}: some were refused`,
        );
    },
  );
}

/** Nesting and width far past anything valid, in the body itself and in each kind of field. */
const DEEP = 10_000;
const deepArray = (n: number): string => '['.repeat(n) + ']'.repeat(n);
const deepObject = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const wideObject = (n: number): string => '{' + Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',') + '}';

t(
  `deep (${DEEP} levels) and wide (100,000 keys) bodies on every route with a body: 400 invalid_request naming the field, never a 5xx`,
  async ({ env, key, ctx }) => {
    const id = ctx.known[0] as string;
    const webhook = await env.call('POST', '/v1/webhooks', {
      key,
      body: { url: 'https://hooks.example.com/svc', events: ['stream.live'] },
    });
    assert.is(webhook.status, 201, webhook.text);
    const routes: [string, string][] = [
      ['POST', '/v1/streams'],
      ['PATCH', `/v1/streams/${id}`],
      ['POST', `/v1/streams/${id}/playback-token`],
      ['POST', '/v1/webhooks'],
      ['PATCH', `/v1/webhooks/${webhook.body.id}`],
      ['POST', `/v1/embed/${id}/beat`],
      ['POST', `/v1/embed/${id}/session`],
      ['POST', `/v1/embed/${id}/playback`],
      ['POST', `/v1/streams/${id}/chat/bans`],
      ['POST', `/v1/embed/${id}/chat/messages`],
      ['POST', `/v1/embed/${id}/chat/reactions`],
      ['POST', `/v1/embed/${id}/mod/ban`],
      ['POST', `/v1/streams/${id}/chat/moderators`],
      ['POST', `/v1/embed/${id}/mod/session`],
    ];
    // [payload, the field the answer names (null: the body itself)]
    const bodies: [string, string | null][] = [
      [deepArray(DEEP), null],
      [deepObject(DEEP), 'a'],
      [`{"metadata":${deepObject(DEEP)}}`, 'metadata'],
      [`{"metadata":{"list":${deepArray(DEEP)}}}`, 'metadata'],
      [`{"name":${deepArray(DEEP)}}`, 'name'],
      [`{"player":{"allowed_domains":${deepArray(DEEP)}}}`, 'player'],
      [`{"events":${deepArray(DEEP)}}`, 'events'],
    ];
    for (const [method, url] of routes) {
      for (const [payload, field] of bodies) {
        const res = await env.call(method as 'POST', url, {
          key,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        const where = `${method} ${url} ${payload.slice(0, 40)}`;
        assert.is(res.status, 400, `${where}: ${res.status} ${res.text.slice(0, 200)}`);
        assert.is(res.body.error.code, 'invalid_request', where);
        assert.is(res.body.error.details.field, field ?? undefined, where);
        assert.match(res.body.error.message, /nested more than 32 levels/, where);
      }
      for (const payload of [
        wideObject(100_000),
        `{"metadata":${wideObject(100_000)}}`,
        `[${'0,'.repeat(100_000)}0]`,
      ]) {
        const res = await env.call(method as 'POST', url, {
          key,
          payload,
          headers: { 'content-type': 'application/json' },
        });
        assert.is(res.status, 400, `${method} ${url} wide: ${res.status} ${res.text.slice(0, 200)}`);
        assert.is(res.body.error.code, 'invalid_request');
      }
    }
    // Exactly at the limit still works: the body and 31 levels of metadata are 32 levels.
    const nested = `{"metadata":${'{"a":'.repeat(31)}1${'}'.repeat(31)}}`;
    const ok = await env.call('POST', '/v1/streams', {
      key,
      payload: nested,
      headers: { 'content-type': 'application/json' },
    });
    assert.is(ok.status, 201, ok.text.slice(0, 200));
  },
);

t('after the fuzzing the stored streams are still well-formed', async ({ env }) => {
  const bad = await env.db.sql`
    select id from streams
    where name = '' or length(name) > 100 or pg_column_size(metadata) > 4096
      or id !~ '^str_[a-z0-9]{20}$' or (metadata is not null and jsonb_typeof(metadata) <> 'object')`;
  assert.equal(
    bad.map((r) => r.id),
    [],
  );
});

function check(res: Reply, endpoint: Endpoint, doc: Doc, where: string): void {
  assert.ok(res.status < 500, `${where}: ${res.status} ${res.text.slice(0, 300)}`);
  assert.match(String(res.headers['x-request-id']), /^req_[a-z0-9]{20}$/, `${where}: X-Request-Id`);
  if (res.status < 400) {
    assert.ok(res.status === 200 || res.status === 201, `${where}: ${res.status}`);
    if (endpoint.op) {
      assert.ok([SUCCESS[endpoint.op]].flat().includes(res.status), `${where}: ${res.status}`);
      assert.is(res.body?.object, OBJECT_OF[endpoint.op], `${where}: ${res.text.slice(0, 200)}`);
    } else {
      assert.is(res.body?.object, 'api_root', where);
    }
    return;
  }
  const e = res.body?.error;
  assert.ok(e && typeof e === 'object', `${where}: error shape: ${res.text.slice(0, 300)}`);
  assert.equal(Object.keys(res.body).sort(), ['error'], where);
  assert.equal(Object.keys(e).sort(), ['code', 'details', 'message', 'request_id'], where);
  assert.type(e.code, 'string', where);
  assert.type(e.message, 'string', where);
  assert.ok(e.details && typeof e.details === 'object' && !Array.isArray(e.details), `${where}: details`);
  assert.is(e.request_id, res.headers['x-request-id'], `${where}: request id`);
  assert.is(STATUS_OF[e.code as ErrorCode], res.status, `${where}: ${e.code} with ${res.status}`);
  if (e.code === 'limit_creation_rate')
    assert.is(res.headers['retry-after'], String(e.details.retry_after_seconds), where);
  if (endpoint.op) {
    const [method, path] = endpoint.op.split(' ') as [string, string];
    const listed = doc.paths[path]?.[method]?.responses[String(res.status)]?.['x-error-codes'] ?? [];
    assert.ok(
      listed.includes(e.code),
      `${where}: ${res.status} ${e.code} is not in x-error-codes of ${endpoint.op} (${listed.join(', ')})`,
    );
  }
}

t.run();
