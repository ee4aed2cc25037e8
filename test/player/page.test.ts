import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/core/errors.js';
import { shippedFile } from '../../src/core/resources.js';
import { LATENCY, LATENCY_MODES, type LatencyMode } from '../../src/domains/streams/model.js';
import type { Embed } from '../../src/domains/surfaces/embed/schemas.js';
import { loadPlayerAssets, type PlayerAssets } from '../../src/domains/surfaces/player/assets.js';
import { chooseEncoding } from '../../src/platform/http/static-assets.js';
import { embedFixture, playerApi } from '../helpers/player-site.js';

type Entry = { embed: Embed; allowedDomains: string[] | null; latencyMode?: LatencyMode } | ApiError;
const t = suite<{ app: FastifyInstance; embeds: Map<string, Entry>; assets: PlayerAssets }>('player: page and assets');

const ID = (n: number) => `str_${String(n).padStart(20, '0')}`;

t.before(async (ctx) => {
  ctx.embeds = new Map();
  ctx.assets = await loadPlayerAssets();
  ctx.app = await playerApi(ctx.embeds, ctx.assets);
});
t.after(async (ctx) => {
  await ctx.app.close();
});

const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });
const stateOf = (html: string) => /<main id="svc-player" data-state="([a-z]+)"/.exec(html)?.[1];
const inlineJson = (html: string) =>
  /<script type="application\/json" id="svc-embed">([^<]*)<\/script>/.exec(html)?.[1];

t(
  'each embed status renders its screen in data-state; members-only streams show the notice',
  async ({ app, embeds }) => {
    const cases: [Partial<Embed>, string][] = [
      [{ status: 'pending' }, 'waiting'],
      [{ status: 'live', playback_url: 'https://cdn.test/sig/str_x/master.m3u8', poll_after_seconds: 60 }, 'loading'],
      [{ status: 'ended', beacon: null, poll_after_seconds: null }, 'ended'],
      [{ status: 'unavailable', beacon: null, poll_after_seconds: null }, 'unavailable'],
      [{ status: 'closed', beacon: null, poll_after_seconds: null }, 'closed'],
      [{ status: 'live', access: 'viewer_token' }, 'members'],
      [{ status: 'pending', access: 'viewer_token' }, 'members'],
      [{ status: 'ended', access: 'viewer_token', beacon: null }, 'ended'],
    ];
    for (const [i, [over, state]] of cases.entries()) {
      const id = ID(i + 1);
      embeds.set(id, { embed: embedFixture({ id, ...over }), allowedDomains: null });
      const res = await get(app, `/player/${id}`);
      assert.is(res.statusCode, 200, res.body);
      assert.is(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.is(res.headers['cache-control'], 'public, max-age=1');
      assert.is(stateOf(res.body), state, JSON.stringify(over));
      assert.match(res.body, `poster="https://cdn.test/str_playertest0000000001/poster.jpg"`);
      assert.equal(JSON.parse(inlineJson(res.body) ?? ''), embedFixture({ id, ...over }));
    }
  },
);

t('the title is text, never markup, in <title>, the heading and the inline JSON', async ({ app, embeds }) => {
  const id = ID(100);
  const title = '</script><script>alert(1)</script> & "quotes" <b>';
  const embed = embedFixture({ id, title });
  embeds.set(id, { embed, allowedDomains: null });
  const res = await get(app, `/player/${id}`);
  assert.not.match(res.body, '<script>alert');
  assert.not.match(res.body, '<b>');
  assert.match(
    res.body,
    '<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quotes&quot; &lt;b&gt;</title>',
  );
  assert.match(res.body, '<h1 class="title" id="svc-title">&lt;/script&gt;');
  const json = inlineJson(res.body);
  assert.ok(json, 'the JSON script is closed only by its own end tag');
  assert.match(json, '\\u003c/script\\u003e');
  assert.equal(JSON.parse(json), embed);
  // Exactly one inline script element, the JSON one; the other is the external player.
  assert.is(res.body.match(/<script/g)?.length, 2);
});

t('without a title: no heading, a neutral <title>', async ({ app, embeds }) => {
  const id = ID(101);
  embeds.set(id, { embed: embedFixture({ id, title: null }), allowedDomains: null });
  const res = await get(app, `/player/${id}`);
  assert.match(res.body, '<title>Live video</title>');
  assert.not.match(res.body, '<h1');
});

t(
  "the latency mode and its player targets (the streams model's table) are on the page; the script's fallback is standard's",
  async ({ app, embeds }) => {
    for (const [i, mode] of LATENCY_MODES.entries()) {
      const id = ID(102 + i);
      embeds.set(id, { embed: embedFixture({ id }), allowedDomains: null, latencyMode: mode });
      const res = await get(app, `/player/${id}`);
      assert.match(res.body, `data-latency="${mode}"`);
      const tuning = /data-tuning="([^"]*)"/.exec(res.body)?.[1] ?? '';
      assert.equal(JSON.parse(tuning.replaceAll('&quot;', '"')), LATENCY[mode].player);
    }
    const script = readFileSync(shippedFile('player', 'player.js'), 'utf8');
    const fallback = /const STANDARD = (\{[^}]*\});/.exec(script)?.[1];
    assert.ok(fallback, 'player.js declares STANDARD');
    assert.equal(new Function(`return ${fallback}`)(), LATENCY.standard.player);
  },
);

t('unknown, malformed and deeper paths: the HTML 404 page', async ({ app }) => {
  for (const path of [
    `/player/${ID(999)}`,
    '/player/nope',
    '/player/str_ABCDEFGHIJKLMNOPQRST',
    '/player/%3Cscript%3E',
    '/player/str_x/extra',
    '/player/',
  ]) {
    const res = await get(app, path);
    assert.is(res.statusCode, 404, path);
    assert.is(res.headers['content-type'], 'text/html; charset=utf-8', path);
    assert.match(res.body, 'data-state="error" data-error="not_found"', path);
    assert.match(res.body, 'There is no stream at this address');
    assert.not.match(res.body, '%3Cscript');
    assert.ok(res.headers['content-security-policy'], path);
  }
});

t('rate limited: the HTML 429 page with Retry-After, never cached, reloading itself', async ({ app, embeds }) => {
  const id = ID(200);
  embeds.set(id, new ApiError('rate_limited', 'Too many reads of unknown ids.', { retry_after_seconds: 42 }));
  const res = await get(app, `/player/${id}`);
  assert.is(res.statusCode, 429);
  assert.is(res.headers['retry-after'], '42');
  assert.is(res.headers['cache-control'], 'no-store');
  assert.is(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.match(res.body, 'data-error="rate_limited"');
  assert.match(res.body, '<meta http-equiv="refresh" content="42">');
});

t('any other failure of the embed read: an HTML 503 that retries, not a 500 or JSON', async ({ app, embeds }) => {
  const id = ID(201);
  embeds.set(id, new ApiError('internal_error', 'database down'));
  const res = await get(app, `/player/${id}`);
  assert.is(res.statusCode, 503);
  assert.is(res.headers['retry-after'], '10');
  assert.is(res.headers['content-type'], 'text/html; charset=utf-8');
  assert.not.match(res.body, 'database down');
});

t(
  'CSP: frame-ancestors from allowed domains; scripts from the site only; the inline style by hash',
  async ({ app, embeds }) => {
    const csp = async (allowedDomains: string[] | null) => {
      const id = ID(300 + (allowedDomains?.length ?? 9));
      embeds.set(id, { embed: embedFixture({ id }), allowedDomains });
      const res = await get(app, `/player/${id}`);
      return { policy: String(res.headers['content-security-policy']), html: res.body };
    };
    const { policy, html } = await csp(['example.com', '*.school.org:8443']);
    assert.match(
      policy,
      /frame-ancestors https:\/\/example\.com http:\/\/example\.com https:\/\/\*\.school\.org:8443 http:\/\/\*\.school\.org:8443$/,
    );
    assert.match(policy, "script-src 'self';");
    assert.match(policy, "default-src 'none'");
    assert.match(policy, 'media-src * blob:');
    assert.match(policy, 'connect-src *');
    assert.match(policy, 'worker-src blob:');
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    assert.match(policy, `style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`);
    assert.match((await csp(null)).policy, /frame-ancestors \*$/);
    assert.match((await csp([])).policy, /frame-ancestors 'none'$/);
    // A value that could break out of the header never reaches it.
    assert.match((await csp(['bad.example; script-src *'])).policy, /frame-ancestors 'none'$/);
    assert.not.ok('x-frame-options' in (await get(app, `/player/${ID(309)}`)).headers);
  },
);

t(
  'assets: named by content hash, immutable, br/gzip/identity decode to the same bytes',
  async ({ app, embeds, assets }) => {
    const id = ID(400);
    embeds.set(id, { embed: embedFixture({ id }), allowedDomains: null });
    const page = (await get(app, `/player/${id}`)).body;
    const player = /<script src="\/assets\/(player\.[0-9a-f]{8}\.js)" defer><\/script>/.exec(page)?.[1];
    const hls = /data-hls="\/assets\/(hls\.light\.[0-9a-f]{8}\.min\.js)"/.exec(page)?.[1];
    assert.ok(player && hls, 'the page links both assets');
    assert.is(assets.urls.player, `/assets/${player}`);
    const files = {
      [player]: readFileSync(shippedFile('player', 'player.js')),
      [hls]: readFileSync(createRequire(import.meta.url).resolve('hls.js/dist/hls.light.min.js')),
    };
    for (const [name, original] of Object.entries(files)) {
      assert.ok(name.includes(createHash('sha256').update(original).digest('hex').slice(0, 8)), name);
      const decoders = { br: brotliDecompressSync, gzip: gunzipSync, identity: (b: Buffer) => b };
      for (const [accept, expected] of [
        ['gzip, deflate, br', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0, gzip;q=0.5', 'gzip'],
        ['', 'identity'],
        ['gzip;q=0, *;q=0', 'identity'],
      ] as const) {
        const res = await app.inject({
          method: 'GET',
          url: `/player/assets/${name}`,
          headers: { 'accept-encoding': accept },
        });
        assert.is(res.statusCode, 200);
        assert.is(res.headers['content-type'], 'text/javascript; charset=utf-8');
        assert.is(res.headers['cache-control'], 'public, max-age=31536000, immutable');
        assert.is(res.headers.vary, 'Accept-Encoding');
        assert.is(res.headers['content-encoding'], expected === 'identity' ? undefined : expected, accept);
        const body = decoders[expected](res.rawPayload);
        assert.ok(body.equals(original), `${name} with ${accept}`);
        if (expected !== 'identity') assert.ok(res.rawPayload.length < original.length * 0.5, `${expected} compresses`);
        const etag = String(res.headers.etag);
        const again = await app.inject({
          method: 'GET',
          url: `/player/assets/${name}`,
          headers: { 'accept-encoding': accept, 'if-none-match': etag },
        });
        assert.is(again.statusCode, 304);
        assert.is(again.rawPayload.length, 0);
      }
    }
  },
);

t('an unknown asset is a 404 in the API error shape', async ({ app }) => {
  for (const name of ['player.00000000.js', 'player.js', '..%2Fpackage.json']) {
    const res = await get(app, `/player/assets/${name}`);
    assert.is(res.statusCode, 404, name);
    assert.is(res.json().error.code, 'not_found');
  }
});

t('Accept-Encoding: br over gzip over identity; q=0 refuses; * stands for the rest', () => {
  assert.is(chooseEncoding(undefined), 'identity');
  assert.is(chooseEncoding('gzip, br'), 'br');
  assert.is(chooseEncoding('GZIP'), 'gzip');
  assert.is(chooseEncoding('x-gzip'), 'gzip');
  assert.is(chooseEncoding('br;q=0,gzip'), 'gzip');
  assert.is(chooseEncoding('*'), 'br');
  assert.is(chooseEncoding('*;q=0, gzip'), 'gzip');
  assert.is(chooseEncoding('identity'), 'identity');
  assert.is(chooseEncoding('deflate'), 'identity');
});

t('the player routes are not in the OpenAPI document', async ({ app }) => {
  const doc = app.swagger() as { paths?: Record<string, unknown> };
  assert.ok(!Object.keys(doc.paths ?? {}).some((p) => p.startsWith('/player')));
});

t.run();
