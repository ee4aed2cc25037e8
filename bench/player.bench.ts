/**
 * The hosted player side, on the appliance in its own process: embed reads and beats under load,
 * the delay behind a live publisher as the hosted player shows it (barcode burned into frames),
 * and what the page downloads before its first frame.
 */
import type { Browser } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser.js';
import { CONNECTIONS, benchSeconds, type Row } from './api.bench.js';
import { checkSegments, measureDelay, median, publishBarcode, watchSegments, type BarcodePublisher, type DelayRun, type SegmentCheck, type SegmentWatch } from './delay.js';
import { beats, embedReads, type BeatRow, type EmbedRows } from './embed-load.js';
import { firstFrame, GROUPS, type FirstFrame } from './first-frame.js';
import { api, firstPlayable, startServe } from './pipeline.bench.js';

const DELAY_SECONDS = 60;
const LOOK_MS = 500;
/** The publisher stops by itself after this, whatever happens to the bench. */
const PUBLISH_SECONDS = 180;

interface Created {
  id: string;
  stream_key: string;
  playback_url: string;
  embed_url: string;
  went_live_at: string | null;
}

interface Timing {
  /** Publisher spawned → S0 (its media clock started), and → playable master with a segment of each rendition. */
  s0AfterSpawnMs: number;
  playableAfterSpawnMs: number;
  /** S0 − went_live_at (the on_publish hook). */
  s0AfterOnPublishMs: number | null;
  reports: number;
  /** The page measured was opened this long after S0. */
  pageOpenedAfterS0Ms: number;
  medianLagMs: number | null;
}

interface Figures {
  embed: EmbedRows;
  beats: BeatRow[];
  check: { segments: SegmentCheck[]; ok: boolean };
  playlist: { target: number; durations: number[] };
  timing: Timing;
  first: FirstFrame;
  delay: DelayRun;
}

export async function benchPlayer(): Promise<string> {
  const { served: s, stop } = await startServe();
  let publisher: BarcodePublisher | null = null;
  let browser: Browser | null = null;
  let segments: SegmentWatch | null = null;
  try {
    const create = (name: string) => api<Created>(s, 'POST', '/v1/streams', { name, profile: 'abr_basic', max_resolution: 720, record: false });
    const live = await create('Player bench');
    const [direct, proxied] = [await create('Beats direct'), await create('Beats via nginx')];
    // Under load before anything is live: the 2 cores are not shared with ladders and players.
    const embed = await embedReads(s, live.id);
    const beatRows = [
      await beats(s, 'beats → API', s.apiUrl, `/v1/embed/${direct.id}`, direct.id),
      await beats(s, 'beats → nginx → API', s.playerUrl, `/api/embed/${proxied.id}`, proxied.id),
    ];

    const spawned = Date.now();
    publisher = publishBarcode(`${s.rtmpUrl}/${live.stream_key}`, PUBLISH_SECONDS);
    const playable = await firstPlayable(live.playback_url, spawned);
    segments = watchSegments(live.playback_url);
    const check = await checkSegments(live.playback_url);
    const wentLive = (await api<Created>(s, 'GET', `/v1/streams/${live.id}`)).went_live_at;

    browser = await launchChromium();
    const first = await firstFrame(browser, live.embed_url);
    const page = await (await browser.newContext()).newPage();
    // BENCH_PLAYER_CONFIG (JSON) overrides the player's hls.js settings, to compare tunings in one place.
    const tuning = process.env.BENCH_PLAYER_CONFIG;
    if (tuning) await page.addInitScript(`window.svcPlayerConfig = ${JSON.stringify(JSON.parse(tuning))};`);
    const opened = Date.now();
    await page.goto(live.embed_url);
    await page.waitForSelector('#svc-player[data-state=playing]', { timeout: 30_000 });
    const delay = await measureDelay(page, publisher, DELAY_SECONDS, LOOK_MS);
    const playlist = segments.stop();
    const timing: Timing = {
      s0AfterSpawnMs: publisher.s0() - spawned,
      playableAfterSpawnMs: playable * 1000,
      s0AfterOnPublishMs: wentLive ? publisher.s0() - new Date(wentLive).getTime() : null,
      reports: publisher.reports(),
      pageOpenedAfterS0Ms: opened - publisher.s0(),
      medianLagMs: publisher.medianLagMs(),
    };
    return format({ embed, beats: beatRows, check, playlist, timing, first, delay });
  } finally {
    segments?.stop();
    await browser?.close().catch(() => undefined);
    await publisher?.kill('SIGKILL');
    await stop();
  }
}

/** Left-aligned first column, the others right-aligned, each as wide as its widest cell. */
export function table(head: string[], rows: (string | number)[][]): string[] {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  '));
}

const loadCells = (r: Row) => [r.name, r.rps, r.p50, r.p99, r.non2xx, r.errors];
const LOAD_HEAD = ['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'];
const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? '-' : (ms / 1000).toFixed(2));
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

function format(f: Figures): string {
  const out: string[] = [];
  const cache = Object.entries(f.embed.cache).map(([k, v]) => `${k} ${v}`).join(', ');
  out.push(`Embed reads of a pending stream, ${CONNECTIONS} clients, ${benchSeconds()} s each (autocannon)`);
  out.push(...table(LOAD_HEAD, f.embed.rows.map(loadCells)));
  out.push(`nginx X-Cache over the cached run: ${cache} → ${f.embed.apiReadsPerSecond.toFixed(2)} reads/s reached the API`);

  out.push('', `Beats (POST …/beat, ${f.beats[0]?.distinct ?? 0} distinct s cycled, st=p, u random), ${CONNECTIONS} clients, ${benchSeconds()} s each; then GET /v1/streams/{id}`);
  out.push(...table([...LOAD_HEAD, 'distinct s', 'now.watching', 'exact', 'rate', 'expected'], f.beats.map((b) => [...loadCells(b), b.distinct, b.watching ?? 'null', String(b.exact), b.rate, b.expected])));
  out.push('(above 400 viewers only page loads with u < rate count, each for 1/rate; expected: that count from the u values sent, at the rate the read used)');

  const d = f.delay;
  const renditions = Object.entries(d.renditions).map(([k, v]) => `${k} ×${v}`).join(', ') || '-';
  out.push('', `Delay behind the publisher (testsrc2 720p30 x264 superfast zerolatency 2 s GOP → abr_basic: source + 480p; hosted player in Chromium), a look every ${LOOK_MS} ms for ${DELAY_SECONDS} s`);
  out.push(
    ...table(
      ['looks', 'readable', 'median s', 'min s', 'max s', 'first look s', 'last 30 s median', 'waiting events', 'frozen looks', 'on screen', 'hls.latency s'],
      [[d.looks, d.delays.length, seconds(median(d.delays)), seconds(Math.min(...d.delays)), seconds(Math.max(...d.delays)), seconds(d.delays[0]), seconds(median(d.delays.slice(-30_000 / LOOK_MS))), d.stalls, d.frozen, renditions, d.hlsLatency?.toFixed(2) ?? '-']],
    ),
  );
  out.push(`The page was opened ${seconds(f.timing.pageOpenedAfterS0Ms)} s into the stream; delay = look time − (S0 + barcode/100)`);
  if (d.levelSwitches.length > 0) out.push(`hls.js level switches (level at media time): ${d.levelSwitches.join(', ')}`);
  const t = f.timing;
  out.push(`S0 (media time 0 on the wall clock) from ${t.reports} progress reports (the earliest; the median one is ${t.medianLagMs?.toFixed(0) ?? '-'} ms later): ${seconds(t.s0AfterSpawnMs)} s after spawning the publisher, ${seconds(t.s0AfterOnPublishMs)} s after on_publish; playable ${seconds(t.playableAfterSpawnMs)} s after spawning`);
  out.push(`Source segments as published (s): ${f.playlist.durations.join(' ')}; highest TARGETDURATION ${f.playlist.target}`);
  out.push(`Barcode self-check on the CDN (${f.check.ok ? 'ok' : 'FAILED'}): ${f.check.segments.map((p) => `${p.segment} ${p.width}x${p.height} value ${p.value} pts ${p.ptsSeconds.toFixed(3)} (offset ${p.offsetSeconds.toFixed(3)})`).join('; ')}`);

  const g = f.first.groups;
  const total = GROUPS.reduce((sum, k) => ({ requests: sum.requests + g[k].requests, bytes: sum.bytes + g[k].bytes }), { requests: 0, bytes: 0 });
  out.push('', `Player page before its first frame (fresh browser context): ${seconds(f.first.toFirstFrameMs)} s from navigation (loadeddata ${seconds(f.first.toLoadedDataMs)} s, playing ${seconds(f.first.toPlayingMs)} s)`);
  out.push(...table(['kind', 'requests', 'KiB (body + headers)'], [...GROUPS.map((k) => [k, g[k].requests, kib(g[k].bytes)]), ['total', total.requests, kib(total.bytes)]]));
  out.push(`segments: ${f.first.segments.join(', ') || '-'}; other: ${f.first.others.join(', ') || '-'}; ${f.first.later} more responses finished within a second after the first frame`);
  return out.join('\n');
}
