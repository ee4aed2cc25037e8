/**
 * The player script in Debian's Chromium against a live-like HLS folder made by ffmpeg (two
 * renditions, 4-s segments) on a second origin, with the page, assets, embed reads and beats
 * served as nginx presents them. One stream's life: waiting → playing → ended.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Embed } from '../../src/domains/surfaces/embed/schemas.js';
import { launchChromium, outputDir } from '../helpers/browser.js';
import {
  embedFixture,
  startLiveHls,
  startPlayerSite,
  STREAM,
  type LiveHls,
  type PlayerSite,
} from '../helpers/player-site.js';
import { waitFor } from '../helpers/publisher.js';

interface Ctx {
  hls: LiveHls;
  site: PlayerSite;
  browser: Browser;
  page: Page;
  problems: string[];
  out: string;
}

const t = suite<Ctx>('player script in Chromium');
const beacon = { rate: 1, interval_seconds: 2 };
const live = (site: PlayerSite, over: Partial<Embed> = {}): Embed =>
  embedFixture({ status: 'live', playback_url: `${site.cdnUrl}/master.m3u8`, poll_after_seconds: 60, beacon, ...over });
const over = (id: string): Partial<Embed> => ({
  id,
  status: 'ended',
  playback_url: null,
  beacon: null,
  poll_after_seconds: null,
});

t.before(async (ctx) => {
  // ffmpeg starts first: its first segments take ~8 s, while the waiting page is checked.
  ctx.hls = startLiveHls();
  ctx.site = await startPlayerSite(embedFixture({ poll_after_seconds: 1, beacon }), ctx.hls.dir);
  ctx.browser = await launchChromium();
  ctx.page = await ctx.browser.newPage({ viewport: { width: 960, height: 540 } });
  ctx.problems = [];
  ctx.page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) ctx.problems.push(m.text());
  });
  ctx.page.on('pageerror', (e) => ctx.problems.push(`page error: ${e.message}`));
  ctx.out = outputDir('player');
});

t.after(async (ctx) => {
  await ctx.browser?.close().catch(() => {});
  await ctx.site?.close().catch(() => {});
  await ctx.hls?.kill().catch(() => {});
});

const dataState = (page: Page) => page.getAttribute('#svc-player', 'data-state');
const player = <T>(page: Page, fn: string): Promise<T> =>
  page.evaluate(`(() => { const p = window.svcPlayer; return ${fn}; })()`) as Promise<T>;

t(
  'pending: the waiting screen, a w beat at once, then a re-read every poll_after_seconds',
  async ({ site, page, out }) => {
    await page.goto(site.embedUrl());
    assert.is(await dataState(page), 'waiting');
    assert.ok(await page.isVisible('text=This stream has not started yet'));
    await waitFor('the first beat', async () => site.beats.length > 0, 3000, 50);
    const [first] = site.beats;
    assert.is(first?.st, 'w');
    assert.match(first?.s ?? '', /^[A-Za-z0-9_-]{16}$/);
    assert.ok(Number(first?.u) >= 0 && Number(first?.u) < 1);
    const reads = site.embedReads.get(STREAM) ?? 0;
    await waitFor('embed re-reads', async () => (site.embedReads.get(STREAM) ?? 0) >= reads + 2, 5000, 100);
    assert.is(await page.textContent('#svc-status'), 'This stream has not started yet');
    await page.screenshot({ path: join(out, 'waiting.png') });
  },
);

t('a page load whose u is not below beacon.rate never reports', async ({ site, browser }) => {
  const id = 'str_playertest0000000004';
  site.setEmbed(embedFixture({ id, beacon: { rate: 0, interval_seconds: 1 } }));
  const page = await browser.newPage();
  try {
    await page.goto(site.embedUrl(id));
    assert.is(await dataState(page), 'waiting');
    await page.waitForTimeout(1500);
    assert.is(site.beats.filter((b) => b.id === id).length, 0);
  } finally {
    await page.close();
  }
});

t(
  'live: plays by itself with hls.js once the embed says live; beats follow the state',
  async ({ hls, site, page, out }) => {
    await waitFor(
      'two segments of each rendition',
      async () =>
        existsSync(join(hls.dir, 'master.m3u8')) &&
        ['v0', 'v1'].every(
          (v) => (readFileSync(join(hls.dir, `${v}.m3u8`), 'utf8').match(/#EXTINF/g)?.length ?? 0) >= 2,
        ),
      30_000,
    );
    site.setEmbed(live(site));
    await page.waitForSelector('#svc-player[data-state=playing]', { timeout: 20_000 });
    assert.is(await player(page, 'p.engine'), 'hls');
    await waitFor('time advancing', () => player<boolean>(page, 'p.video.currentTime > 1 && !p.video.paused'), 8000);
    // The first beat after going live is sent within a second of the change.
    await waitFor('a p beat', async () => site.beats.some((b) => b.st === 'p'), 3000, 50);
    const sessions = new Set(site.beats.filter((b) => b.id === STREAM).map((b) => `${b.s} ${b.u}`));
    assert.is(sessions.size, 1, 'one s and one u per page load');
    // Then every interval_seconds (2 s here) with about 10% jitter.
    const from = site.beats.length;
    const periodic = await waitFor(
      'three more beats',
      async () =>
        site.beats.slice(from).filter((b) => b.id === STREAM).length >= 3 &&
        site.beats.slice(from).filter((b) => b.id === STREAM),
      9000,
      100,
    );
    for (let i = 1; i < periodic.length; i++) {
      const gap = ((periodic[i]?.at ?? 0) - (periodic[i - 1]?.at ?? 0)) / 1000;
      assert.ok(gap > 1.7 && gap < 2.4, `beat gap ${gap} s`);
      assert.is(periodic[i]?.st, 'p');
    }
    const latency = await player<number>(page, 'p.latency()');
    assert.ok(latency > 2 && latency < 12, `latency ${latency}`);
    await page.screenshot({ path: join(out, 'playing.png') });
  },
);

t('quality menu: Auto and each rendition by height; choosing one switches hls.js to it', async ({ page, out }) => {
  await page.mouse.move(400, 300);
  await page.click('#svc-quality');
  assert.is(await page.getAttribute('#svc-quality', 'aria-expanded'), 'true');
  const items = await page.$$eval('#svc-quality-menu [data-quality]', (els) =>
    els.map((e) => [e.getAttribute('data-quality'), e.textContent, e.getAttribute('aria-checked')]),
  );
  assert.equal(items, [
    ['auto', 'Auto', 'true'],
    ['720', '720p', 'false'],
    ['360', '360p', 'false'],
  ]);
  // Keyboard: the checked item has focus; arrows move it.
  assert.is(await page.evaluate(() => document.activeElement?.getAttribute('data-quality')), 'auto');
  await page.keyboard.press('ArrowDown');
  assert.is(await page.evaluate(() => document.activeElement?.getAttribute('data-quality')), '720');
  await page.screenshot({ path: join(out, 'quality-menu.png') });
  await page.click('[data-quality="360"]');
  assert.is(await page.getAttribute('#svc-quality-menu', 'hidden'), '');
  assert.is(await page.getAttribute('#svc-quality', 'aria-expanded'), 'false');
  assert.is(await page.getAttribute('[data-quality="360"]', 'aria-checked'), 'true');
  await waitFor(
    '360p playing',
    () => player<boolean>(page, 'p.hls.levels[p.hls.currentLevel]?.height === 360'),
    12_000,
  );
  assert.is(await page.textContent('#svc-quality'), '360p');
  await page.click('#svc-quality');
  await page.click('[data-quality="auto"]');
  assert.ok(await player<boolean>(page, 'p.hls.autoLevelEnabled'));
  assert.match((await page.textContent('#svc-quality')) ?? '', /^Auto/);
});

t('keyboard: m mutes, k pauses (a z beat) and resumes', async ({ site, page }) => {
  await page.focus('#svc-player');
  await page.keyboard.press('m');
  assert.ok(await player<boolean>(page, 'p.video.muted'));
  await page.waitForSelector('#svc-mute[aria-pressed=true]', { timeout: 1000 });
  await page.keyboard.press('m');
  await page.waitForSelector('#svc-mute[aria-pressed=false]', { timeout: 1000 });
  await page.keyboard.press('k');
  await page.waitForSelector('#svc-player[data-playback=paused]', { timeout: 1000 });
  assert.is(await page.getAttribute('#svc-play', 'aria-label'), 'Play');
  await waitFor('a z beat', async () => site.beats.at(-1)?.st === 'z', 3000, 50);
  await page.keyboard.press('k');
  await waitFor(
    'playing again',
    async () => (await page.getAttribute('#svc-player', 'data-playback')) === 'playing',
    5000,
  );
});

t('autoplay with sound refused: starts muted and offers Unmute', async ({ site, browser, out }) => {
  const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
  try {
    // What a browser's autoplay policy does on a page the viewer has not touched: play() with
    // sound is refused. (Not a launch flag: Chromium sometimes counts the page as activated.)
    await page.addInitScript(() => {
      const play = HTMLMediaElement.prototype.play;
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        if (this.muted) return play.call(this);
        return Promise.reject(new DOMException('play() needs a user gesture', 'NotAllowedError'));
      };
    });
    await page.goto(site.embedUrl());
    await page.waitForSelector('#svc-player[data-state=playing]', { timeout: 20_000 });
    const started = await player<string>(
      page,
      'JSON.stringify({ muted: p.video.muted, paused: p.video.paused, playback: p.playback })',
    );
    assert.is(started, JSON.stringify({ muted: true, paused: false, playback: 'playing' }));
    assert.ok(await page.isVisible('#svc-unmute'));
    await page.screenshot({ path: join(out, 'muted-start.png') });
    await page.click('#svc-unmute');
    assert.not.ok(await player<boolean>(page, 'p.video.muted'));
    await page.waitForSelector('#svc-unmute', { state: 'hidden', timeout: 1000 });
  } finally {
    await page.close();
  }
});

t(
  'the owner closes the player: the closed screen at the next embed read, playback stops',
  async ({ site, browser }) => {
    const id = 'str_playertest0000000002';
    site.setEmbed(live(site, { id, poll_after_seconds: 1 }));
    const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    try {
      await page.goto(site.embedUrl(id));
      await page.waitForSelector('#svc-player[data-state=playing]', { timeout: 20_000 });
      site.setEmbed({ ...live(site, { id }), ...over(id), status: 'closed' });
      await page.waitForSelector('#svc-player[data-state=closed]', { timeout: 4000 });
      assert.ok(await page.isVisible('text=This player has been closed'));
      assert.is(await player(page, 'p.hls'), null);
      assert.ok(await player<boolean>(page, 'p.video.paused'));
    } finally {
      await page.close();
    }
  },
);

t(
  'the stream stops arriving: after a few seconds of stall the embed is read at once, and says ended',
  async ({ site, browser }) => {
    const id = 'str_playertest0000000003';
    // Reads every 60 s while live: only the stall makes it read sooner.
    site.setEmbed(live(site, { id, playback_url: `${site.cdnUrl}/s3/master.m3u8` }));
    const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    try {
      await page.goto(site.embedUrl(id));
      await page.waitForSelector('#svc-player[data-state=playing]', { timeout: 20_000 });
      const reads = site.embedReads.get(id) ?? 0;
      site.blockCdn('s3');
      site.setEmbed({ ...live(site, { id }), ...over(id) });
      await page.waitForSelector('#svc-player[data-state=ended]', { timeout: 20_000 });
      assert.ok((site.embedReads.get(id) ?? 0) > reads);
    } finally {
      await page.close();
    }
  },
);

t('the publisher reconnects: a stall, then the same page plays on (a gap is not the end)', async ({ hls, page }) => {
  const before = await player<number>(page, 'p.video.currentTime');
  await hls.reconnect(3000);
  await page.waitForSelector('#svc-player[data-playback=buffering]', { timeout: 10_000 });
  await page.waitForSelector('#svc-player[data-playback=playing]', { timeout: 20_000 });
  await waitFor(
    'time advancing past the gap',
    () => player<boolean>(page, `p.video.currentTime > ${before} + 2`),
    8000,
  );
  assert.is(await dataState(page), 'playing');
});

t('the playlist ends (EXT-X-ENDLIST): the ended screen, and beats stop', async ({ hls, site, page, out }) => {
  await hls.finish();
  await page.waitForSelector('#svc-player[data-state=ended]', { timeout: 20_000 });
  assert.ok(await page.isVisible('text=This stream has ended'));
  assert.is(await page.textContent('#svc-status'), 'This stream has ended');
  assert.is(await player(page, 'p.hls'), null);
  const count = site.beats.filter((b) => b.id === STREAM).length;
  await new Promise((r) => setTimeout(r, 2500));
  assert.is(site.beats.filter((b) => b.id === STREAM).length, count, 'no beats once ended');
  await page.screenshot({ path: join(out, 'ended.png') });
});

t('no CSP violation and no script error on the way', ({ problems }) => {
  assert.equal(problems, []);
});

t.run();
