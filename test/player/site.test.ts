import { get, type IncomingHttpHeaders } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';

const t = suite<{ app: TestAppliance; key: string; streamId: string }>('player site through nginx');

t.before(async (ctx) => {
  ctx.app = await startTestAppliance();
  ctx.key = (await ctx.app.newAccount()).key;
  const res = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: { name: 'Site check' } });
  ctx.streamId = res.body.id;
});
t.after(async ({ app }) => app.close());

const player = (app: TestAppliance, path: string, init?: RequestInit) =>
  fetch(`${app.config.publicUrls.player_url}${path}`, init);

t('the embed read through nginx: the API answer, cached for a second', async ({ app, streamId }) => {
  const first = await player(app, `/api/embed/${streamId}`);
  assert.is(first.status, 200);
  const body = (await first.json()) as { id: string; status: string };
  assert.is(body.id, streamId);
  assert.is(body.status, 'pending');
  assert.is(first.headers.get('access-control-allow-origin'), '*');
  const again = await player(app, `/api/embed/${streamId}`);
  await again.arrayBuffer();
  assert.is(again.headers.get('x-cache'), 'HIT');
});

t('a crowd of 200 concurrent reads reaches the API about once', async ({ app, streamId }) => {
  await new Promise((r) => setTimeout(r, 2100));
  const answers = await Promise.all(
    Array.from({ length: 200 }, async () => {
      const res = await player(app, `/api/embed/${streamId}`);
      await res.arrayBuffer();
      return { status: res.status, cache: res.headers.get('x-cache') };
    }),
  );
  assert.ok(answers.every((a) => a.status === 200));
  const misses = answers.filter((a) => a.cache !== 'HIT' && a.cache !== 'UPDATING').length;
  assert.ok(misses <= 2, `${misses} of 200 reached the API`);
});

t('beats through nginx are counted; unknown ids are 404', async ({ app, key, streamId }) => {
  const beat = await player(app, `/api/embed/${streamId}/beat?s=site-viewer-1&st=w&u=0.5`, { method: 'POST' });
  assert.is(beat.status, 204);
  const read = await app.call('GET', `/v1/streams/${streamId}`, { key });
  assert.is(read.body.viewers.now.waiting, 1);
  const unknown = await player(app, '/api/embed/str_aaaaaaaaaaaaaaaaaaaa');
  assert.is(unknown.status, 404);
  assert.is(((await unknown.json()) as { error: { code: string } }).error.code, 'not_found');
});

t(
  'moderator links through nginx: /api/embed/{id}/mod/session opens a moderator session, never cached',
  async ({ app, key, streamId }) => {
    const invited = await app.call('POST', `/v1/streams/${streamId}/chat/moderators`, { key, body: { name: 'Grace' } });
    assert.is(invited.status, 201, invited.text);
    const token = invited.body.link.split('#mod=')[1] as string;
    const open = (t: string) =>
      player(app, `/api/embed/${streamId}/mod/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ moderator_token: t }),
      });
    const first = await open(token);
    assert.is(first.status, 200);
    const session = (await first.json()) as { id: string; viewer: { role: string; name: string } };
    assert.equal([session.viewer.role, session.viewer.name], ['moderator', 'Grace']);
    const second = (await (await open(token)).json()) as { id: string };
    assert.is.not(second.id, session.id);
    const forged = await open(`${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
    assert.is(forged.status, 401);
    assert.is(((await forged.json()) as { error: { code: string } }).error.code, 'invalid_viewer_token');
  },
);

/** One GET with exactly these headers (fetch would add its own Accept-Encoding and decode). */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: number }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes }));
    }).on('error', reject);
  });
}

t('the page through nginx, and its assets cached per encoding', async ({ app, streamId }) => {
  const page = await player(app, `/${streamId}`);
  assert.is(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', 'text/html');
  const html = await page.text();
  const asset = /\/assets\/player\.[0-9a-f]{8}\.js/.exec(html)?.[0];
  assert.ok(asset, 'the page names its hashed script');
  const url = `${app.config.publicUrls.player_url}${asset}`;
  // Twice each, so that the second answer comes from nginx's cache: each encoding keeps its own copy.
  for (const encoding of ['br', 'gzip', 'br', 'identity', 'gzip']) {
    const res = await rawGet(url, { 'accept-encoding': encoding });
    assert.is(res.status, 200);
    assert.is(res.headers['content-encoding'] ?? 'identity', encoding);
    assert.is(res.headers['cache-control'], 'public, max-age=31536000, immutable');
  }
});

t('the address nginx saw reaches the API: 60 unknown ids later, 429 (not cached)', async ({ app, streamId }) => {
  // The previous test spent one unknown id from this address.
  for (let i = 1; i < 60; i++) await (await player(app, `/api/embed/str_${String(i).padStart(20, '0')}`)).arrayBuffer();
  const limited = await player(app, `/api/embed/str_${'9'.repeat(20)}`);
  assert.is(limited.status, 429);
  assert.ok(Number(limited.headers.get('retry-after')) >= 1);
  // A known id from the same address: refused too, by the API, once the cached read is stale
  // (nginx counts whole seconds: a one-second entry lives one to two seconds).
  await new Promise((r) => setTimeout(r, 2100));
  const known = await player(app, `/api/embed/${streamId}`);
  assert.is(known.status, 429);
  // A client cannot pose as another address: nginx replaces X-Forwarded-For.
  const spoofed = await player(app, `/api/embed/str_${'8'.repeat(20)}`, {
    headers: { 'x-forwarded-for': '203.0.113.9' },
  });
  assert.is(spoofed.status, 429);
});

t('poster_url: a neutral picture before the first still; health check', async ({ app, streamId }) => {
  const poster = await fetch(`${app.config.publicUrls.cdn_url}/_thumb/${streamId}.jpg`);
  assert.is(poster.status, 200);
  assert.is(poster.headers.get('content-type'), 'image/svg+xml');
  assert.match(await poster.text(), '<svg');
  assert.is((await fetch(`${app.config.publicUrls.cdn_url}/_thumb/../secrets.json`)).status >= 400, true);
  assert.is((await player(app, '/healthz')).status, 200);
  assert.is((await player(app, '/nothing-here')).status, 404);
});

t.run();
