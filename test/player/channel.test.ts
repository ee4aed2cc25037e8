/**
 * The channel page (`{player_url}/c/<chn_id>`) and its embed read across two broadcasts of a
 * channel, in Debian's Chromium: the next stream's title, live, the next stream after the first
 * ends, live again, all in one page load. Channel rows are written with SQL (the channel API is
 * another part's).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { newId } from '../../src/core/ids.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { launchChromium } from '../helpers/browser.js';
import { publishBarcode, type BarcodePublisher } from '../helpers/glass-to-glass.js';

const t = suite<{ app: TestAppliance; browser: Browser; key: string; accountId: string; publisher?: BarcodePublisher }>(
  'channel page',
);

t.before(async (ctx) => {
  ctx.app = await startTestAppliance({ live: { reconnect_window_seconds: 5 } });
  const account = await ctx.app.newAccount({ trusted: true });
  ctx.key = account.key;
  ctx.accountId = account.id;
  ctx.browser = await launchChromium();
});
t.after(async (ctx) => {
  await ctx.publisher?.kill();
  await ctx.browser?.close();
  await ctx.app?.close();
});

async function newChannel(app: TestAppliance, accountId: string, name: string): Promise<string> {
  const id = newId('chn_');
  await app.db.sql`insert into channels (id, account_id, name, player, chat, created_at, updated_at)
    values (${id}, ${accountId}, ${name}, '{}'::jsonb, '{}'::jsonb, now(), now())`;
  return id;
}

/** A pending stream in the channel, low-latency unless told (small pieces: the page goes live within seconds). */
async function newStream(
  ctx: { app: TestAppliance; key: string },
  channelId: string,
  name: string,
  latency_mode: 'low' | 'standard' = 'low',
) {
  const created = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: { name, latency_mode } });
  assert.is(created.status, 201, created.text);
  await ctx.app.db.sql`update streams set channel_id = ${channelId} where id = ${created.body.id}`;
  return created.body as { id: string; stream_key: string; embed_url: string };
}

const shown = (page: Page, id: string, state: string) =>
  page.waitForFunction(
    ([id, state]) => {
      const p = (window as unknown as { svcPlayer: { embed: { id: string }; state: string } }).svcPlayer;
      return p.embed.id === id && p.state === state;
    },
    [id, state] as const,
    { timeout: 45_000 },
  );

t('the channel embed read: the chosen stream, CORS, 404 for unknown ids, cached on the player site', async (ctx) => {
  const { app, accountId } = ctx;
  const channelId = await newChannel(app, accountId, 'Empty channel');
  const empty = await app.call('GET', `/v1/embed/channels/${channelId}`);
  assert.is(empty.status, 200, empty.text);
  assert.equal(empty.body, {
    object: 'channel_embed',
    id: channelId,
    name: 'Empty channel',
    stream: null,
    latency_mode: null,
    poll_after_seconds: 5,
  });
  assert.is(empty.headers['access-control-allow-origin'], '*');
  const a = await newStream(ctx, channelId, 'Week 1');
  const b = await newStream(ctx, channelId, 'Week 2');
  // Read again after the per-node second: the next pending stream is the oldest.
  await new Promise((r) => setTimeout(r, 1100));
  const read = await app.call('GET', `/v1/embed/channels/${channelId}`);
  assert.is(read.body.stream.id, a.id);
  assert.is(read.body.stream.object, 'embed');
  assert.is(read.body.stream.title, 'Week 1');
  assert.is(read.body.stream.status, 'pending');
  assert.is(read.body.latency_mode, 'low');
  await app.call('DELETE', `/v1/streams/${a.id}`, { key: ctx.key });
  await new Promise((r) => setTimeout(r, 1100));
  assert.is((await app.call('GET', `/v1/embed/channels/${channelId}`)).body.stream.id, b.id);
  for (const unknown of [newId('chn_'), 'chn_x', a.id]) {
    const res = await app.call('GET', `/v1/embed/channels/${unknown}`);
    assert.is(res.status, 404, unknown);
    assert.is(res.body.error.code, 'not_found');
  }
  const player = new URL(b.embed_url).origin;
  const cached = await fetch(`${player}/api/embed/channels/${channelId}`);
  assert.is(cached.status, 200);
  assert.ok(cached.headers.get('x-cache'), 'nginx caches it');
  assert.is(((await cached.json()) as { stream: { id: string } }).stream.id, b.id);
  assert.is((await fetch(`${player}/c/${newId('chn_')}`)).status, 404);
});

t('across two broadcasts: next, live, next, live, in one page load', async (ctx) => {
  const { app, accountId, browser } = ctx;
  const channelId = await newChannel(app, accountId, 'Town hall');
  const first = await newStream(ctx, channelId, 'Town hall, week 1');
  const page = await browser.newPage();
  await page.goto(`${new URL(first.embed_url).origin}/c/${channelId}`);
  await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1));
  await shown(page, first.id, 'waiting');
  assert.is(await page.textContent('#svc-title'), 'Town hall, week 1');

  ctx.publisher = publishBarcode(app.rtmpUrl(first.stream_key), 120, { gopSeconds: 1, width: 640, videoKbps: 800 });
  await shown(page, first.id, 'playing');

  const tuning = () =>
    page.evaluate(() => ({
      mode: document.getElementById('svc-player')?.dataset.latency,
      target: (window as unknown as { svcPlayer: { config: { liveSyncDuration: number } } }).svcPlayer.config
        .liveSyncDuration,
    }));
  assert.equal(await tuning(), { mode: 'low', target: 2 });

  // The next week in the other latency mode: the page tunes its player to it, without a reload.
  const second = await newStream(ctx, channelId, 'Town hall, week 2', 'standard');
  assert.is((await app.call('DELETE', `/v1/streams/${first.id}`, { key: ctx.key })).status, 200);
  await ctx.publisher.kill();
  await shown(page, second.id, 'waiting');
  assert.is(await page.textContent('#svc-title'), 'Town hall, week 2');
  assert.equal(await tuning(), { mode: 'standard', target: 4.5 });

  ctx.publisher = publishBarcode(app.rtmpUrl(second.stream_key), 120, { gopSeconds: 1, width: 640, videoKbps: 800 });
  await shown(page, second.id, 'playing');
  assert.equal(await tuning(), { mode: 'standard', target: 4.5 }, 'played with the standard tuning');
  const same = await page.evaluate(() => ({
    marker: (window as unknown as { marker?: number }).marker,
    navigations: performance.getEntriesByType('navigation').length,
  }));
  assert.equal(same, { marker: 1, navigations: 1 }, 'no reload');
  await page.close();
});

t.run();
