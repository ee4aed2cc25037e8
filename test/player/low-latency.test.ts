/**
 * A low-latency stream through the real appliance in Debian's Chromium: 1-second pieces, the
 * hosted player tuned for them, two minutes without a stall, its delay measured with the barcode
 * (test/helpers/barcode.ts), and the recording and signed URLs as in standard mode.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { recordingMatches, streamOf } from '../helpers/broadcast.js';
import { launchChromium } from '../helpers/browser.js';
import { measureDelay, median, publishBarcode, type BarcodePublisher } from '../helpers/glass-to-glass.js';
import { waitFor } from '../helpers/publisher.js';

const t = suite<{ app: TestAppliance; browser: Browser; key: string; publisher?: BarcodePublisher }>(
  'low-latency stream in Chromium',
);

const WATCH_SECONDS = 120;

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

t(
  'plays two minutes with no stall, about 3 s behind the publisher; 1-second pieces; recording and signing unchanged',
  async (ctx) => {
    const { app, key, browser } = ctx;
    const created = await app.call('POST', '/v1/streams', { key, body: { name: 'Auction', latency_mode: 'low' } });
    assert.is(created.status, 201, created.text);
    const s = created.body;
    // A small source (640×360, a keyframe every second as advised): one copied rendition, little CPU.
    ctx.publisher = publishBarcode(app.rtmpUrl(s.stream_key), WATCH_SECONDS + 60, {
      gopSeconds: 1,
      width: 640,
      videoKbps: 800,
    });
    const live = await waitFor('live', async () => (await streamOf(app, key, s.id)).status === 'live', 30_000);
    assert.ok(live);

    const page = await browser.newPage();
    await page.goto(s.embed_url);
    assert.is(await page.getAttribute('#svc-player', 'data-latency'), 'low');
    await page.waitForSelector('#svc-player[data-state="playing"]', { timeout: 45_000 });
    // Settled: once the first piece is timed the player jumps to its target (a seek, which fires `waiting`).
    await page.waitForTimeout(10_000);
    const run = await measureDelay(page, ctx.publisher, WATCH_SECONDS, 1000);
    const delay = median(run.delays);
    console.log(
      `low-latency: ${run.delays.length}/${run.looks} looks readable, median ${((delay ?? NaN) / 1000).toFixed(2)} s behind the publisher (min ${(Math.min(...run.delays) / 1000).toFixed(2)}, max ${(Math.max(...run.delays) / 1000).toFixed(2)}), hls.latency ${run.hlsLatency?.toFixed(2)} s, ${run.stalls} waiting, ${run.hlsStalls} hls.js stalls, ${run.frozen} frozen looks`,
    );
    assert.is(run.stalls, 0, 'no waiting event');
    assert.is(run.hlsStalls, 0, 'no hls.js stall');
    assert.is(run.frozen, 0, 'the picture never stood still between two looks a second apart');
    assert.ok(run.delays.length >= run.looks - 2, `${run.looks - run.delays.length} unreadable looks`);
    // Far below what 4-second pieces allow (their target alone is 4.8 s behind the edge).
    assert.ok(delay !== null && delay < 4500, `median delay ${delay} ms`);

    // The pieces on the CDN are the publisher's 1-second GOPs.
    const playlist = await (await fetch(s.playback_url.replace(/master\.m3u8$/, 'source.m3u8'))).text();
    assert.match(playlist, /#EXT-X-TARGETDURATION:1\n/);
    const lengths = [...playlist.matchAll(/#EXTINF:([\d.]+),/g)].map((m) => Number(m[1]));
    assert.ok(
      lengths.length >= 3 && lengths.every((l) => Math.abs(l - 1) < 0.05),
      `piece lengths ${lengths.join(' ')}`,
    );
    await page.close();

    // The latency mode is fixed once live.
    const refused = await app.call('PATCH', `/v1/streams/${s.id}`, { key, body: { latency_mode: 'standard' } });
    assert.is(refused.status, 409, refused.text);

    // The stream ends; its one MP4 is as long as what was sent, signed like any other.
    const ended = await app.call('DELETE', `/v1/streams/${s.id}`, { key });
    assert.is(ended.status, 200, ended.text);
    const sent = ctx.publisher.sentSeconds();
    await ctx.publisher.kill();
    ctx.publisher = undefined;
    await recordingMatches(app, key, s.id, sent);
  },
);

t.run();
