import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { STATUS_OF, type ErrorCode } from '../../src/core/errors.js';
import { createTestApi, type TestApi } from '../helpers/api.js';

const t = suite<{ env: TestApi }>('http: root and OpenAPI description');
t.before(async (ctx) => {
  ctx.env = await createTestApi();
});
t.after(async (ctx) => {
  await ctx.env.close();
});

/** Every operation that reads the database can also answer 503 `service_unavailable` while it is away. */
const whileAway = (codes: Record<string, ErrorCode[]>): Record<string, ErrorCode[]> => ({
  ...codes,
  503: [...(codes[503] ?? []), 'service_unavailable'],
});

/** The codes each stream operation can return (spec: Endpoints → Streams, Errors). */
const EXPECTED: Record<string, Record<string, ErrorCode[]>> = {
  'post /v1/streams': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    402: ['insufficient_credit'],
    403: ['account_pending', 'tenant_suspended'],
    404: ['not_found'],
    422: ['idempotency_key_reused'],
    429: ['limit_pending_streams', 'limit_creation_rate', 'limit_ingest_hours', 'limit_resolution'],
    503: ['no_capacity'],
  },
  'get /v1/streams': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    403: ['account_pending', 'tenant_suspended'],
    404: ['not_found'],
  },
  // A query field the operation does not define is refused (spec, conventions): 400 on reads too.
  'get /v1/streams/{id}': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    403: ['account_pending', 'tenant_suspended'],
    404: ['not_found'],
  },
  'patch /v1/streams/{id}': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    403: ['account_pending', 'tenant_suspended'],
    404: ['not_found'],
    409: ['stream_not_pending'],
  },
  // A body, if one is sent, must still be JSON of a sane size: 400 is possible although no body is defined.
  'delete /v1/streams/{id}': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    403: ['account_pending', 'tenant_suspended'],
    404: ['not_found'],
  },
  'post /v1/streams/{id}/stream-key': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
    409: ['stream_not_pending'],
  },
  'get /v1/streams/{id}/viewers': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'get /v1/streams/{id}/attendance': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'post /v1/streams/{id}/chat/bans': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'get /v1/streams/{id}/chat/bans': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'delete /v1/streams/{id}/chat/bans/{ban_id}': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'get /v1/streams/{id}/chat/messages': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'delete /v1/streams/{id}/chat/messages/{message_id}': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
  },
  'post /v1/streams/{id}/chat/moderators': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'get /v1/streams/{id}/chat/moderators': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'delete /v1/streams/{id}/chat/moderators/{mod_id}': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
  },
  'post /v1/streams/{id}/outputs': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    403: ['account_pending', 'tenant_suspended'],
    404: ['not_found'],
    409: ['stream_ended'],
    422: ['idempotency_key_reused'],
    429: ['limit_stream_outputs'],
  },
  'get /v1/streams/{id}/outputs': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'get /v1/streams/{id}/outputs/{output_id}': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'patch /v1/streams/{id}/outputs/{output_id}': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    403: ['account_pending', 'tenant_suspended'],
    404: ['not_found'],
    409: ['stream_ended'],
  },
  'delete /v1/streams/{id}/outputs/{output_id}': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
  },
  'post /v1/streams/{id}/playback-token': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
    409: ['stream_ended'],
  },
  'delete /v1/streams/{id}/recording': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'post /v1/streams/{id}/recording/retry': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
    409: ['recording_not_failed'],
  },
  'post /v1/streams/{id}/recording/download': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
    409: ['recording_not_ready'],
  },
  'get /v1/streams/{id}/thumbnail': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
    409: ['thumbnail_not_ready'],
  },
  'get /v1/streams/{id}/recording/thumbnail': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
    409: ['recording_not_ready'],
  },
};

type Doc = {
  openapi: string;
  info: { version: string; title: string };
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, Response>;
        requestBody?: { required?: boolean; content: Record<string, Media> };
        security?: unknown[];
      }
    >
  >;
  components: { schemas: Record<string, Record<string, unknown>> };
};
type Media = { schema?: Record<string, unknown>; example?: unknown; examples?: Record<string, { value: unknown }> };
type Response = { description?: string; 'x-error-codes'?: string[]; content?: Record<string, Media> };

const examplesOf = (media: Media | undefined): unknown[] => [
  ...(media?.example !== undefined ? [media.example] : []),
  ...Object.values(media?.examples ?? {}).map((e) => e.value),
];

t(
  'GET / needs no key and links to the docs, the OpenAPI description and the index, which all answer',
  async ({ env }) => {
    const res = await env.call('GET', '/');
    assert.is(res.status, 200, res.text);
    assert.is(res.body.object, 'api_root');
    assert.is(res.body.version, '1.12.0');
    const base = env.config.publicUrls.base_url;
    assert.is(res.body.docs_url, `${base}/docs`);
    assert.is(res.body.openapi_url, `${base}/openapi.json`);
    assert.is(res.body.index_url, `${base}/index.txt`);
    const docs = await env.call('GET', '/docs');
    assert.is(docs.status, 200);
    assert.match(String(docs.headers['content-type']), /^text\/markdown/);
    assert.match(docs.text, /POST \/v1\/streams/);
    const index = await env.call('GET', '/index.txt');
    assert.is(index.status, 200);
    assert.match(String(index.headers['content-type']), /^text\/plain/);
    for (const op of [
      'POST   /v1/streams',
      'GET    /v1/streams',
      'PATCH  /v1/streams/{id}',
      'DELETE /v1/streams/{id}',
      'POST   /v1/streams/{id}/stream-key',
    ]) {
      assert.ok(index.text.includes(op), `index lists ${op}`);
    }
    const health = await env.call('GET', '/healthz');
    assert.equal([health.status, health.body], [200, { status: 'ok', parts: { database: 'ok' } }]);
    for (const r of [res, docs, index]) {
      for (const h of Object.keys(r.headers)) assert.not.ok(h.startsWith('access-control-'));
    }
  },
);

t('OpenAPI 3.1, version 1.12.0, every stream operation with a key', async ({ env }) => {
  const doc = (await env.call('GET', '/openapi.json')).body as Doc;
  assert.match(doc.openapi, /^3\.1\.\d+$/);
  assert.is(doc.info.version, '1.12.0');
  for (const key of Object.keys(EXPECTED)) {
    const [method, path] = key.split(' ') as [string, string];
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${key} is described`);
    assert.ok(op.security?.length, `${key} needs a key`);
  }
  assert.not.ok(doc.paths['/']?.get?.security?.length, 'GET / needs no key');
});

t(
  'every error response under /v1/streams carries x-error-codes: exactly the codes that operation can return',
  async ({ env }) => {
    const doc = (await env.call('GET', '/openapi.json')).body as Doc;
    const seen = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1/streams')) continue;
      for (const [method, op] of Object.entries(item)) {
        const key = `${method} ${path}`;
        seen.add(key);
        const expected = EXPECTED[key] && whileAway(EXPECTED[key]);
        assert.ok(expected, `unexpected operation ${key}`);
        const errorStatuses = Object.keys(op.responses)
          .filter((s) => Number(s) >= 400)
          .sort();
        assert.equal(errorStatuses, Object.keys(expected).sort(), `${key}: error statuses`);
        for (const status of errorStatuses) {
          const res = op.responses[status] as Response;
          const codes = res['x-error-codes'];
          assert.ok(Array.isArray(codes), `${key} ${status}: x-error-codes`);
          assert.equal([...codes].sort(), [...(expected[status] ?? [])].sort(), `${key} ${status}`);
          for (const code of codes) assert.is(STATUS_OF[code as ErrorCode], Number(status), `${code} is a ${status}`);
          assert.ok(res.description, `${key} ${status}: description`);
          const media = res.content?.['application/json'];
          assert.ok(media?.schema, `${key} ${status}: schema`);
          const examples = examplesOf(media);
          assert.ok(examples.length > 0, `${key} ${status}: an example`);
          for (const ex of examples as {
            error: { code: string; request_id: string; details: unknown; message: string };
          }[]) {
            assert.ok(codes.includes(ex.error.code), `${key} ${status}: example code ${ex.error.code} is listed`);
            assert.match(ex.error.request_id, /^req_/);
            assert.type(ex.error.message, 'string');
            assert.type(ex.error.details, 'object');
          }
        }
      }
    }
    assert.equal([...seen].sort(), Object.keys(EXPECTED).sort());
  },
);

t(
  'an error example carries the details the API really sends (limit_pending_streams: limit and current)',
  async ({ env }) => {
    const doc = (await env.call('GET', '/openapi.json')).body as Doc;
    const media = (doc.paths['/v1/streams']?.post?.responses['429'] as Response).content?.['application/json'];
    const example = (examplesOf(media) as { error: { code: string; details: Record<string, unknown> } }[]).find(
      (e) => e.error.code === 'limit_pending_streams',
    );
    assert.ok(example, 'the 429 of create has a limit_pending_streams example');
    const { key } = await env.newAccount();
    let refused;
    for (let i = 0; i < 5 && !refused; i++) {
      const res = await env.call('POST', '/v1/streams', { key });
      if (res.status === 429) refused = res;
    }
    assert.is(refused?.body.error.code, 'limit_pending_streams');
    assert.equal(Object.keys(example.error.details).sort(), Object.keys(refused?.body.error.details).sort());
    assert.equal(example.error.details, { limit: 2, current: 2 });
  },
);

t('examples exist for request bodies and stream objects; the create body is optional', async ({ env }) => {
  const doc = (await env.call('GET', '/openapi.json')).body as Doc;
  const create = doc.paths['/v1/streams']?.post;
  assert.is(create?.requestBody?.required, false);
  const createMedia = create?.requestBody?.content['application/json'];
  assert.ok(
    examplesOf(createMedia).length > 0 || (createMedia?.schema?.examples as unknown[] | undefined)?.length,
    'create body example',
  );
  const patchBody = doc.paths['/v1/streams/{id}']?.patch?.requestBody;
  assert.ok(patchBody?.required !== false, 'the patch body is required');
  const stream = doc.components.schemas.Stream as { properties: Record<string, { examples?: unknown[] }> };
  assert.ok(stream.properties.id?.examples?.length, 'Stream.id example');
  assert.ok(stream.properties.renditions?.examples?.length, 'Stream.renditions example');
  const created = doc.components.schemas.CreatedStream as { properties: Record<string, { examples?: unknown[] }> };
  assert.ok(created.properties.stream_key?.examples?.length, 'CreatedStream.stream_key example');
  const list = doc.paths['/v1/streams']?.get as unknown as {
    parameters: { name: string; in: string; schema: Record<string, unknown> }[];
  };
  const limit = list.parameters.find((p) => p.name === 'limit');
  assert.equal([limit?.schema.minimum, limit?.schema.maximum, limit?.schema.default], [1, 100, 20]);
  const status = list.parameters.find((p) => p.name === 'status');
  assert.equal(status?.schema.enum, ['pending', 'live', 'ended', 'expired', 'cancelled']);
  assert.ok(list.parameters.find((p) => p.name === 'starting_after'));
  const idem = (
    create as unknown as { parameters: { name: string; in: string; schema: Record<string, unknown> }[] }
  ).parameters.find((p) => p.name === 'idempotency-key');
  assert.equal([idem?.in, idem?.schema.minLength, idem?.schema.maxLength], ['header', 1, 255]);
});

t.run();
