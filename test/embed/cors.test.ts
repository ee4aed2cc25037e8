import * as assert from 'uvu/assert';
import { apiSuite, type Reply } from '../helpers/api.js';
import { createStream } from '../helpers/streams.js';

const t = apiSuite('public endpoints: CORS headers');

const origin = 'https://example.org';
const READ = { 'access-control-allow-origin': '*' };
const PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type',
  'access-control-max-age': '86400',
};

const corsHeaders = (res: Reply) =>
  Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.startsWith('access-control-')));

t('reads, beats and their errors: any origin and nothing else (no credentials, no Vary)', async ({ env, key }) => {
  const s = await createStream(env, key);
  const answers = [
    await env.call('GET', `/v1/embed/${s.id}`),
    await env.call('GET', `/v1/embed/${s.id}`, { headers: { origin } }),
    await env.call('HEAD', `/v1/embed/${s.id}`, { headers: { origin } }),
    await env.call('POST', `/v1/embed/${s.id}/beat?s=abcdefgh12&st=w&u=0.5`, { headers: { origin } }),
    await env.call('POST', `/v1/embed/${s.id}/beat?s=abcdefgh12&st=w&u=2`, { headers: { origin } }),
    await env.call('GET', '/v1/embed/str_aaaaaaaaaaaaaaaaaaaa', { headers: { origin } }),
    // Paths no route serves answer any origin too.
    await env.call('GET', '/v1/embed/a/b/c', { headers: { origin } }),
    await env.call('PUT', `/v1/embed/${s.id}`, { headers: { origin } }),
  ];
  assert.equal(
    answers.map((res) => res.status),
    [200, 200, 200, 204, 400, 404, 404, 404],
  );
  for (const res of answers) {
    assert.equal(corsHeaders(res), READ, res.text);
    assert.is(res.headers.vary, undefined);
  }
});

t(
  'every OPTIONS under /v1/embed/ is a preflight: 204, the same headers, with or without Origin',
  async ({ env, key }) => {
    const s = await createStream(env, key);
    for (const [path, headers] of [
      [
        `/v1/embed/${s.id}/beat`,
        { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-other' },
      ],
      [`/v1/embed/${s.id}`, { origin, 'access-control-request-method': 'GET' }],
      [`/v1/embed/${s.id}`, {}],
      ['/v1/embed/a/b/c', { origin }],
    ] as const) {
      const res = await env.call('OPTIONS', path, { headers });
      assert.is(res.status, 204, `${path}: ${res.text}`);
      assert.is(res.text, '');
      assert.equal(corsHeaders(res), PREFLIGHT);
    }
  },
);

t('nothing outside /v1/embed/ answers a preflight or names an origin', async ({ env, key }) => {
  const s = { id: 'str_aaaaaaaaaaaaaaaaaaaa' };
  const answers = [
    await env.call('OPTIONS', '/v1/embed', { headers: { origin, 'access-control-request-method': 'GET' } }),
    await env.call('OPTIONS', `/player/${s.id}`, { headers: { origin, 'access-control-request-method': 'GET' } }),
    await env.call('OPTIONS', '/', { headers: { origin, 'access-control-request-method': 'GET' } }),
    await env.call('GET', `/player/${s.id}`, { headers: { origin } }),
    await env.call('GET', '/v1/webhooks', { key, headers: { origin } }),
  ];
  assert.equal(
    answers.map((res) => res.status),
    [404, 404, 404, 404, 200],
  );
  for (const res of answers) assert.equal(corsHeaders(res), {});
});

t.run();
