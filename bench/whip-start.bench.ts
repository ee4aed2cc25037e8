/**
 * How soon a broadcast is playable, WHIP from a real browser beside RTMP, on the same appliance:
 * Debian's Chromium publishing its fake 1280x720 camera from the publish page (from the page's
 * WHIP POST), and ffmpeg publishing a 1280x720 clip over RTMP (from the publisher's start), to
 * a master playlist with a segment of every rendition on the CDN. Median of a few runs each.
 */
import type { Browser } from 'playwright-core';
import { withPublishUrl, type StreamDoc } from '../src/cli/streams.js';
import { launchChromium } from '../test/helpers/browser.js';
import { makeClip, publish } from '../test/helpers/publisher.js';
import { api, firstPlayable, startServe, type Served } from './pipeline.bench.js';

const RUNS = 3;
/** Long enough for the first segments, short enough to keep the machine free. */
const PUBLISH_SECONDS = 12;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

async function rtmpRun(s: Served, clip: string): Promise<number> {
  const stream = await api(s, 'POST', '/v1/streams', { max_resolution: 720, record: false });
  const started = Date.now();
  const publisher = publish(`${s.rtmpUrl}/${stream.stream_key}`, clip, { seconds: PUBLISH_SECONDS });
  try {
    return await firstPlayable(stream.playback_url, started);
  } finally {
    await publisher.kill();
    await api(s, 'DELETE', `/v1/streams/${stream.id}`);
  }
}

async function whipRun(s: Served, browser: Browser): Promise<{ playable: number; size: string }> {
  const stream = withPublishUrl(await api<StreamDoc>(s, 'POST', '/v1/streams', { max_resolution: 720, record: false }));
  const playbackUrl = stream.playback_url as string;
  const page = await browser.newPage();
  try {
    await page.goto(stream.publish_url as string);
    await page.waitForSelector('#go:not([disabled])', { timeout: 15_000 });
    const post = page.waitForRequest(
      (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith(`/live/${stream.id}`),
    );
    await page.click('#go');
    await post;
    const started = Date.now();
    const playable = await firstPlayable(playbackUrl, started);
    const master = await (await fetch(playbackUrl)).text();
    const size = /RESOLUTION=(\d+x\d+),[^\n]*NAME="source"/.exec(master)?.[1] ?? '?';
    return { playable, size: `${size}, ${[...master.matchAll(/NAME="([^"]+)"/g)].map((m) => m[1]).join(' + ')}` };
  } finally {
    await page.click('#stop').catch(() => {});
    await page.close();
    await api(s, 'DELETE', `/v1/streams/${stream.id}`);
  }
}

export async function benchWhipStart(): Promise<string> {
  const clip = await makeClip({
    width: 1280,
    height: 720,
    seconds: PUBLISH_SECONDS,
    fps: 30,
    gopSeconds: 2,
    videoKbps: 2500,
  });
  const { served, stop } = await startServe();
  const browser = await launchChromium([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--allow-loopback-in-peer-connection',
  ]);
  try {
    const rtmp: number[] = [];
    const whip: { playable: number; size: string }[] = [];
    // Interleaved, so that the machine's other load falls on both alike.
    for (let i = 0; i < RUNS; i++) {
      rtmp.push(await rtmpRun(served, clip));
      whip.push(await whipRun(served, browser));
    }
    const runs = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');
    return [
      `## First playable, WHIP from Chromium beside RTMP (720p, abr_basic, 4-second segments; median of ${RUNS})`,
      '',
      '| Path | Median | Runs | Source ladder |',
      '|---|---|---|---|',
      `| WHIP, publish page (from the POST) | ${median(whip.map((w) => w.playable)).toFixed(2)} s | ${runs(whip.map((w) => w.playable))} | ${whip.map((w) => w.size).join('; ')} |`,
      `| RTMP, ffmpeg (from its start) | ${median(rtmp).toFixed(2)} s | ${runs(rtmp)} | |`,
    ].join('\n');
  } finally {
    await browser.close();
    await stop();
  }
}
