/**
 * The hosted player end to end: real appliance (nginx, ffmpeg ladder, API), a real publisher and
 * Debian's Chromium. Screenshots of each state go to test-output/player/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { launchChromium, outputDir } from '../helpers/browser.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

const t = suite<{ app: TestAppliance; browser: Browser; key: string; shots: string; publisher?: Publisher }>(
  'hosted player in Chromium',
);

t.before(async (ctx) => {
  ctx.app = await startTestAppliance({
    viewers: { beat_interval_seconds: 2, sample_seconds: 1 },
    live: { reconnect_window_seconds: 5, thumbnail_seconds: 2 },
  });
  ctx.key = (await ctx.app.newAccount({ trusted: true })).key;
  ctx.browser = await launchChromium();
  ctx.shots = outputDir('player');
});
t.after(async (ctx) => {
  await ctx.publisher?.kill();
  await ctx.browser?.close();
  await ctx.app?.close();
});

const stateOf = (page: Page) => page.getAttribute('#svc-player', 'data-state');
const waitForState = (page: Page, state: string, timeoutMs: number) =>
  page.waitForSelector(`#svc-player[data-state="${state}"]`, { timeout: timeoutMs }).then(() => true);

// Both latency modes: the page is the same player, tuned per mode (a low one gets 1-second keyframes, as publishers are told).
for (const mode of ['standard', 'low'] as const)
  t(`${mode} latency: waiting → live by itself → playing with a quality menu, counted exactly → ended`, async (ctx) => {
    const { app, key, browser } = ctx;
    const shots = join(ctx.shots, mode);
    mkdirSync(shots, { recursive: true });
    const clip = await makeClip({ width: 1280, height: 720, seconds: 20, gopSeconds: mode === 'low' ? 1 : 2 });
    const created = await app.call('POST', '/v1/streams', {
      key,
      body: { name: 'Player check', max_resolution: 720, latency_mode: mode },
    });
    assert.is(created.status, 201, created.text);
    const s = created.body;
    assert.is(s.latency_mode, mode);
    assert.is(s.embed_url, `${app.config.publicUrls.player_url}/${s.id}`);

    // Two viewers open the embed URL before the publisher starts.
    const pages = [await browser.newPage(), await browser.newPage()];
    for (const page of pages) await page.goto(s.embed_url);
    for (const page of pages) assert.ok(await waitForState(page, 'waiting', 10_000));
    assert.match((await pages[0]!.textContent('#svc-player')) ?? '', 'Player check');
    assert.is(await pages[0]!.getAttribute('#svc-player', 'data-latency'), mode);
    await pages[0]!.screenshot({ path: join(shots, '1-waiting.png') });
    const waiting = await waitFor('both pages counted as waiting', async () => {
      const now = (await app.call('GET', `/v1/streams/${s.id}`, { key })).body.viewers.now;
      return now?.waiting === 2 && now;
    });
    assert.is(waiting.watching, 0);
    assert.is(waiting.exact, true);

    ctx.publisher = publish(app.rtmpUrl(s.stream_key), clip, { loop: true });
    // The waiting screen polls every 5 s and starts playing by itself.
    for (const page of pages) assert.ok(await waitForState(page, 'playing', 45_000));
    const page = pages[0]!;
    const before = await page.evaluate(() => document.querySelector('video')!.currentTime);
    await page.waitForTimeout(3000);
    const after = await page.evaluate(() => document.querySelector('video')!.currentTime);
    assert.ok(after - before > 1.5, `currentTime advanced ${after - before} s in 3 s`);

    // The quality menu lists the renditions (source 720p and 480p) and Auto.
    await page.click('#svc-quality');
    const qualities = await page.$$eval('[data-quality]', (items) => items.map((i) => i.getAttribute('data-quality')));
    assert.ok(qualities.includes('auto'), String(qualities));
    assert.ok(qualities.includes('720'), String(qualities));
    assert.ok(qualities.includes('480'), String(qualities));
    await page.screenshot({ path: join(shots, '2-playing-quality-menu.png') });
    await page.keyboard.press('Escape');

    // Every open page reports: the count is exact.
    const live = await waitFor('both pages counted as watching', async () => {
      const read = (await app.call('GET', `/v1/streams/${s.id}`, { key })).body;
      return read.viewers.now?.watching === 2 && read;
    });
    assert.is(live.viewers.now.waiting, 0);
    assert.is(live.viewers.now.exact, true);
    assert.is(live.viewers_now, 2);

    // The stream's still reaches the stream and the CDN.
    const still = await waitFor(
      'a thumbnail',
      async () => (await app.call('GET', `/v1/streams/${s.id}`, { key })).body.thumbnail,
    );
    const poster = await fetch(still.url);
    assert.is(poster.status, 200);
    assert.is(poster.headers.get('content-type'), 'image/jpeg');
    assert.ok((await poster.arrayBuffer()).byteLength > 1000);

    // The publisher stops: after the reconnect window the stream ends, and so does the player.
    await ctx.publisher.kill();
    ctx.publisher = undefined;
    for (const p of pages) assert.ok(await waitForState(p, 'ended', 45_000));
    await page.screenshot({ path: join(shots, '3-ended.png') });
    const ended = (await app.call('GET', `/v1/streams/${s.id}`, { key })).body;
    assert.is(ended.status, 'ended');
    assert.is(ended.viewers.now, null);
    for (const p of pages) await p.close();
  });

t(
  'a cancelled stream shows the unavailable screen; an unknown id the not-found page',
  async ({ app, key, browser, shots }) => {
    const created = await app.call('POST', '/v1/streams', { key, body: {} });
    await app.call('DELETE', `/v1/streams/${created.body.id}`, { key });
    const page = await browser.newPage();
    await page.goto(created.body.embed_url);
    assert.ok(await waitForState(page, 'unavailable', 10_000));
    await page.screenshot({ path: join(shots, '4-unavailable.png') });
    const missing = await page.goto(`${app.config.publicUrls.player_url}/str_aaaaaaaaaaaaaaaaaaaa`);
    assert.is(missing?.status(), 404);
    assert.is(await stateOf(page), 'error');
    await page.close();
  },
);

t.run();
