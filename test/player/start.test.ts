/**
 * The first seconds of a page load in standard mode, in Debian's Chromium: the origin tells each
 * media playlist's age (`X-Playlist-Age`), and the hosted player starts at its target from it,
 * not up to a 4-second piece further back (docs/decisions.md, "Low-latency mode"). Delays are read
 * off the barcode in the picture (test/helpers/barcode.ts).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { launchChromium } from '../helpers/browser.js';
import { measureDelay, median, publishBarcode, type BarcodePublisher } from '../helpers/glass-to-glass.js';
import { playableAt, recordStart, startOf } from '../helpers/instant-start.js';
import { waitFor } from '../helpers/publisher.js';
import { LATENCY, type LatencyMode } from '../../src/domains/streams/model.js';

const t = suite<{ app: TestAppliance; browser: Browser; key: string; publisher?: BarcodePublisher }>(
  'standard mode: a page load starts at its target',
);

/** Seconds each page load is watched; the settled delay is the median of the second half. */
const WATCH_SECONDS = 20;
/**
 * How far the first look may be behind the settled delay. A start that ignores the playlist's age
 * is behind by that age (here about 3 s, see below); a start at the target is behind by the time
 * from the first playlist read to the first frame, which hls.js then catches up. Generous: this
 * checks behaviour, not speed.
 */
const FIRST_LOOK_SLACK_MS = 1500;

t.before(async (ctx) => {
  ctx.app = await startTestAppliance({ live: { reconnect_window_seconds: 5 } });
  ctx.key = (await ctx.app.newAccount({ trusted: true })).key;
  ctx.browser = await launchChromium();
});
t.after(async (ctx) => {
  await ctx.publisher?.kill();
  await ctx.browser?.close();
  await ctx.app?.close();
});

/** The newest piece's address in a media playlist, and the playlist's age header. */
async function readPlaylist(url: string): Promise<{ newest: string; age: string | null; expose: string | null }> {
  const res = await fetch(url);
  assert.is(res.status, 200, url);
  const lines = (await res.text()).trim().split('\n');
  return {
    newest: lines[lines.length - 1] as string,
    age: res.headers.get('x-playlist-age'),
    expose: res.headers.get('access-control-expose-headers'),
  };
}

/** Resolves when a new piece is listed (read every 50 ms), with the playlist as read then. */
async function nextPiece(url: string): Promise<Awaited<ReturnType<typeof readPlaylist>>> {
  const before = (await readPlaylist(url)).newest;
  return waitFor(
    'the next piece',
    async () => {
      const read = await readPlaylist(url);
      return read.newest !== before && read;
    },
    10_000,
    50,
  );
}

t(
  'the origin tells a media playlist its age; page loads opened late in a piece start near their target, without a stall',
  async (ctx) => {
    const { app, key, browser } = ctx;
    const created = await app.call('POST', '/v1/streams', { key, body: { name: 'Keynote', latency_mode: 'standard' } });
    assert.is(created.status, 201, created.text);
    const s = created.body;
    // A small source (640×360, a keyframe every 2 s): one copied rendition in 4-second pieces, little CPU.
    ctx.publisher = publishBarcode(app.rtmpUrl(s.stream_key), 180, { gopSeconds: 2, width: 640, videoKbps: 800 });
    assert.ok(await waitFor('live', async () => (await streamOf(app, key, s.id)).status === 'live', 30_000));
    const playlist = s.playback_url.replace(/master\.m3u8$/, 'source.m3u8');
    await waitFor(
      'three pieces listed',
      async () => {
        const res = await fetch(playlist);
        return res.ok && ((await res.text()).match(/#EXTINF/g) ?? []).length >= 3;
      },
      45_000,
    );

    // Right after a piece is listed the playlist is about as old as the time it took to see it.
    const fresh = await nextPiece(playlist);
    assert.ok(fresh.age !== null && Number(fresh.age) >= 0 && Number(fresh.age) < 0.5, `X-Playlist-Age ${fresh.age}`);
    assert.is(fresh.expose, 'X-Playlist-Age');
    await new Promise((r) => setTimeout(r, 2000));
    const later = await readPlaylist(playlist);
    if (later.newest === fresh.newest)
      assert.ok(Number(later.age) >= 1.9 && Number(later.age) < 2.6, `X-Playlist-Age ${later.age} two seconds later`);
    const master = await fetch(s.playback_url);
    assert.is(master.headers.get('x-playlist-age'), null, 'the master playlist has no age');

    // Opened 2.5 s into a 4-second piece, each page's first playlist read is about 3 s old: a start
    // that took it as new would show the first look about 3 s behind where the page settles.
    for (const load of [1, 2]) {
      await nextPiece(playlist);
      await new Promise((r) => setTimeout(r, 2500));
      const page = await browser.newPage();
      await page.goto(s.embed_url);
      await page.waitForSelector('#svc-player[data-state="playing"]', { timeout: 30_000 });
      const run = await measureDelay(page, ctx.publisher, WATCH_SECONDS, 500);
      await page.close();
      const first = run.delays[0];
      const settled = median(run.delays.slice(run.delays.length / 2));
      console.log(
        `start, page load ${load}: first look ${((first ?? NaN) / 1000).toFixed(2)} s behind the publisher, settled ${((settled ?? NaN) / 1000).toFixed(2)} s; ${run.stalls} waiting, ${run.hlsStalls} hls.js stalls, ${run.frozen} frozen looks`,
      );
      assert.ok(first !== undefined && settled !== null, `${run.delays.length}/${run.looks} looks readable`);
      assert.ok(
        first <= settled + FIRST_LOOK_SLACK_MS,
        `page load ${load}: first look ${first} ms, settled ${settled} ms`,
      );
      assert.is(run.stalls, 0, 'no waiting event');
      assert.is(run.hlsStalls, 0, 'no hls.js stall');
    }
  },
);

/**
 * How long after the first playable media a page that was waiting may start. The goal is 1.5 s
 * (measured: docs/decisions.md, "Instant start"); the old start took 4.0 s (standard) and 2.0 s (low),
 * this one 0.6 and 0.9 s. Generous: this checks behaviour on a shared machine, not speed.
 */
const START_BOUND_MS = 1800;
/**
 * How far past its target a waiting page may start. The old start waited for a second (standard)
 * or third (low) piece and began at the stream's first frame: a piece or two past the target.
 */
const START_LATENCY_SLACK = 1;

for (const mode of ['standard', 'low'] as const satisfies readonly LatencyMode[]) {
  t(
    `${mode}: a page opened before the publisher plays soon after the first playable media, at its target behind the edge`,
    async (ctx) => {
      const { app, key, browser } = ctx;
      const created = await app.call('POST', '/v1/streams', { key, body: { name: 'Town hall', latency_mode: mode } });
      assert.is(created.status, 201, created.text);
      const s = created.body;
      const page = await browser.newPage();
      await recordStart(page);
      await page.goto(s.embed_url);
      await page.waitForSelector('#svc-player[data-state="waiting"]');
      await ctx.publisher?.kill();
      ctx.publisher = publishBarcode(app.rtmpUrl(s.stream_key), 120, {
        gopSeconds: mode === 'low' ? 1 : 2,
        width: 640,
        videoKbps: 800,
      });
      const playable = await playableAt(s.playback_url);
      const start = await startOf(page);
      const run = await measureDelay(page, ctx.publisher, 8, 500);
      await page.close();
      const target = LATENCY[mode].player.liveSyncDuration;
      console.log(
        `${mode}, waiting page: plays ${((start.at - playable) / 1000).toFixed(2)} s after the first playable media, ${start.latency?.toFixed(2)} s behind its edge (target ${start.target?.toFixed(2)}), position ${start.position.toFixed(2)} (${start.pieces} pieces listed from ${start.listedFrom}); first look ${((run.delays[0] ?? NaN) / 1000).toFixed(2)} s behind the publisher, median ${((median(run.delays) ?? NaN) / 1000).toFixed(2)} s; ${run.stalls} waiting`,
      );
      assert.ok(
        start.at - playable <= START_BOUND_MS,
        `plays ${start.at - playable} ms after the first playable media`,
      );
      assert.ok(start.latency !== null && start.target !== null, 'hls.js plays');
      assert.ok(start.latency <= start.target + START_LATENCY_SLACK, `${start.latency} s behind the edge at the start`);
      const first = run.delays[0];
      assert.ok(first !== undefined, `${run.delays.length}/${run.looks} looks readable`);
      assert.ok(
        first <= (target + 0.6 + START_LATENCY_SLACK + 0.5) * 1000,
        `first look ${first} ms behind the publisher`,
      );
    },
  );
}

t.run();
