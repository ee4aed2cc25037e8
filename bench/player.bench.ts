/**
 * The hosted player side, on the appliance in its own process: embed reads and beats under load,
 * the delay behind a live publisher as the hosted player shows it (barcode burned into frames),
 * and what the page downloads before its first frame.
 */
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { shippedFile } from '../src/core/resources.js';
import { launchChromium } from '../test/helpers/browser.js';
import { recordStart, startOf } from '../test/helpers/instant-start.js';
import {
  measureDelay,
  median,
  publishBarcode,
  type BarcodePublisher,
  type DelayRun,
} from '../test/helpers/glass-to-glass.js';
import { CONNECTIONS, benchSeconds, type Row } from './api.bench.js';
import { checkSegments, watchSegments, type SegmentCheck, type SegmentWatch } from './delay.js';
import { beats, embedReads, waitingCrowd, type BeatRow, type CrowdRows, type EmbedRows } from './embed-load.js';
import { firstFrame, GROUPS, type FirstFrame } from './first-frame.js';
import { api, firstPlayable, startServe } from './pipeline.bench.js';

/** Seconds each page load is measured; BENCH_DELAY_SECONDS changes it. */
const DELAY_SECONDS = Number(process.env.BENCH_DELAY_SECONDS ?? 45);
/** Hosted-player page loads per mode: the delay depends on when a page opens (BENCH_PAGE_LOADS). */
const PAGE_LOADS = Number(process.env.BENCH_PAGE_LOADS ?? 3);
const LOOK_MS = 500;
/** The publisher stops by itself after this, whatever happens to the bench. */
const PUBLISH_SECONDS = 900;
/** The crowd of waiting pages whose cost to the API is measured. */
const CROWD_PAGES = 2000;
/** Seconds a page that waited is watched once it plays. */
const WAITED_WATCH_SECONDS = 10;

/** A constant of the player script, so that the crowd polls as the pages do. */
function playerConstant(name: string): number {
  const value = new RegExp(`const ${name} = ([0-9.]+);`).exec(readFileSync(shippedFile('player', 'player.js'), 'utf8'));
  if (!value) throw new Error(`player.js has no ${name}`);
  return Number(value[1]);
}

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
  medianLagMs: number | null;
}

interface DelayRow {
  mode: 'standard' | 'low';
  player: string;
  /** When the page was opened, after S0. */
  openedAfterS0Ms: number;
  run: DelayRun;
}

/** A page opened before the publisher started: seconds after spawning the publisher. */
interface WaitedRow {
  mode: 'standard' | 'low';
  /** The stream's own page, or its channel's (`{player_url}/c/<chn_id>`). */
  page: 'stream' | 'channel';
  playableS: number;
  playingS: number;
  /** hls.js's distance from its live edge estimate when it began, and its target. */
  latency: number | null;
  target: number | null;
  run: DelayRun;
}

interface Figures {
  embed: EmbedRows;
  crowd: CrowdRows;
  waited: WaitedRow[];
  beats: BeatRow[];
  check: { segments: SegmentCheck[]; ok: boolean };
  playlist: { target: number; durations: number[] };
  lowPlaylist: { target: number; durations: number[] };
  timing: Timing;
  first: FirstFrame;
  delays: DelayRow[];
}

/**
 * The reference: hls.js as a site would use it out of the box (`new Hls()`, no settings), the
 * player site's own copy, on the same stream. It runs in a page of the player site (its 404 page):
 * Chromium lets only a page served from loopback read the CDN on loopback.
 */
async function openReference(page: Page, playerUrl: string, embedUrl: string, playbackUrl: string): Promise<void> {
  const hlsScript = /data-hls="([^"]+)"/.exec(await (await fetch(embedUrl)).text())?.[1];
  if (!hlsScript) throw new Error('no data-hls on the player page');
  await page.goto(`${playerUrl}/bench-reference`);
  await page.addScriptTag({ url: hlsScript });
  await page.evaluate(`(() => {
    const video = document.createElement('video');
    video.muted = true;
    document.body.append(video);
    const hls = new Hls();
    hls.on(Hls.Events.MANIFEST_PARSED, () => video.play());
    hls.loadSource(${JSON.stringify(playbackUrl)});
    hls.attachMedia(video);
    window.svcPlayer = { video, hls };
  })()`);
  await page.waitForFunction('window.svcPlayer.video.currentTime > 0', undefined, { timeout: 30_000 });
}

/** One page load in a fresh browser context, measured for DELAY_SECONDS. */
async function measureLoad(
  browser: Browser,
  publisher: BarcodePublisher,
  mode: DelayRow['mode'],
  player: string,
  open: (page: Page) => Promise<void>,
): Promise<DelayRow> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // BENCH_PLAYER_CONFIG (JSON) overrides the player's hls.js settings, to compare tunings in one place.
    const tuning = process.env.BENCH_PLAYER_CONFIG;
    if (tuning) await page.addInitScript(`window.svcPlayerConfig = ${JSON.stringify(JSON.parse(tuning))};`);
    const opened = Date.now();
    await open(page);
    return {
      mode,
      player,
      openedAfterS0Ms: opened - publisher.s0(),
      run: await measureDelay(page, publisher, DELAY_SECONDS, LOOK_MS),
    };
  } finally {
    await context.close();
  }
}

/** A page on the stream, opened and waiting before its publisher starts. */
async function openWaiting(browser: Browser, embedUrl: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await recordStart(page);
  await page.goto(embedUrl);
  await page.waitForSelector('#svc-player[data-state=waiting]');
  return { context, page };
}

/** When the waiting page played, against `spawned` and the first playable media. */
async function waitedRow(
  waiting: { context: BrowserContext; page: Page },
  publisher: BarcodePublisher,
  mode: WaitedRow['mode'],
  page: WaitedRow['page'],
  spawned: number,
  playableS: number,
): Promise<WaitedRow> {
  try {
    const start = await startOf(waiting.page);
    const run = await measureDelay(waiting.page, publisher, WAITED_WATCH_SECONDS, LOOK_MS);
    return {
      mode,
      page,
      playableS,
      playingS: (start.at - spawned) / 1000,
      latency: start.latency,
      target: start.target,
      run,
    };
  } finally {
    await waiting.context.close();
  }
}

const hosted = (embedUrl: string) => async (page: Page) => {
  await page.goto(embedUrl);
  await page.waitForSelector('#svc-player[data-state=playing]', { timeout: 30_000 });
};

/** The reference, then PAGE_LOADS hosted-player loads, opened at different phases of the pieces. */
async function measureMode(
  browser: Browser,
  playerUrl: string,
  publisher: BarcodePublisher,
  mode: DelayRow['mode'],
  stream: Created,
): Promise<DelayRow[]> {
  const rows = [
    await measureLoad(browser, publisher, mode, 'hls.js defaults', (page) =>
      openReference(page, playerUrl, stream.embed_url, stream.playback_url),
    ),
  ];
  for (let i = 1; i <= PAGE_LOADS; i++) {
    await new Promise((r) => setTimeout(r, 1300 * i));
    rows.push(await measureLoad(browser, publisher, mode, `hosted player, load ${i}`, hosted(stream.embed_url)));
  }
  return rows;
}

export async function benchPlayer(): Promise<string> {
  const { served: s, stop } = await startServe();
  let publisher: BarcodePublisher | null = null;
  let browser: Browser | null = null;
  let segments: SegmentWatch | null = null;
  try {
    // The waiting pages are the stream's own and its channel's (the same start code, measured apart).
    const channel = await api<{ id: string; page_url: string }>(s, 'POST', '/v1/channels', { name: 'Player bench' });
    const create = (name: string, latency_mode = 'standard', channel_id?: string) =>
      api<Created>(s, 'POST', '/v1/streams', {
        name,
        profile: 'abr_basic',
        max_resolution: 720,
        record: false,
        latency_mode,
        ...(channel_id ? { channel_id } : {}),
      });
    const live = await create('Player bench', 'standard', channel.id);
    const [direct, proxied] = [await create('Beats direct'), await create('Beats via nginx')];
    // Under load before anything is live: the 2 cores are not shared with ladders and players.
    const embed = await embedReads(s, live.id);
    const beatRows = [
      await beats(s, 'beats → API', s.apiUrl, `/v1/embed/${direct.id}`, direct.id),
      await beats(s, 'beats → nginx → API', s.playerUrl, `/api/embed/${proxied.id}`, proxied.id),
    ];
    const crowd = await waitingCrowd(
      s,
      live.id,
      live.playback_url,
      CROWD_PAGES,
      playerConstant('PENDING_POLL_SECONDS'),
      playerConstant('PLAYABLE_POLL_MS'),
    );

    browser = await launchChromium();
    let waiting = await openWaiting(browser, live.embed_url);
    let waitingChannel = await openWaiting(browser, channel.page_url);
    let spawned = Date.now();
    publisher = publishBarcode(`${s.rtmpUrl}/${live.stream_key}`, PUBLISH_SECONDS);
    const playable = await firstPlayable(live.playback_url, spawned);
    const waited = [
      await waitedRow(waiting, publisher, 'standard', 'stream', spawned, playable),
      await waitedRow(waitingChannel, publisher, 'standard', 'channel', spawned, playable),
    ];
    segments = watchSegments(live.playback_url);
    const check = await checkSegments(live.playback_url);
    const wentLive = (await api<Created>(s, 'GET', `/v1/streams/${live.id}`)).went_live_at;

    const first = await firstFrame(browser, live.embed_url);
    const delays = await measureMode(browser, s.playerUrl, publisher, 'standard', live);
    const playlist = segments.stop();
    const timing: Timing = {
      s0AfterSpawnMs: publisher.s0() - spawned,
      playableAfterSpawnMs: playable * 1000,
      s0AfterOnPublishMs: wentLive ? publisher.s0() - new Date(wentLive).getTime() : null,
      reports: publisher.reports(),
      medianLagMs: publisher.medianLagMs(),
    };
    await api(s, 'DELETE', `/v1/streams/${live.id}`);
    await publisher.kill('SIGKILL');

    // The same publisher with a keyframe every second (the advice for low latency), on a low-latency stream.
    const low = await create('Player bench, low latency', 'low', channel.id);
    // A channel page takes its tuning from the stream it opens on: opened again for the low-latency one.
    waiting = await openWaiting(browser, low.embed_url);
    waitingChannel = await openWaiting(browser, channel.page_url);
    spawned = Date.now();
    publisher = publishBarcode(`${s.rtmpUrl}/${low.stream_key}`, PUBLISH_SECONDS, { gopSeconds: 1 });
    const lowPlayable = await firstPlayable(low.playback_url, spawned);
    waited.push(
      await waitedRow(waiting, publisher, 'low', 'stream', spawned, lowPlayable),
      await waitedRow(waitingChannel, publisher, 'low', 'channel', spawned, lowPlayable),
    );
    segments = watchSegments(low.playback_url);
    delays.push(...(await measureMode(browser, s.playerUrl, publisher, 'low', low)));
    const lowPlaylist = segments.stop();
    return format({ embed, crowd, waited, beats: beatRows, check, playlist, lowPlaylist, timing, first, delays });
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
  return cells.map((r) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  '),
  );
}

const loadCells = (r: Row) => [r.name, r.rps, r.p50, r.p99, r.non2xx, r.errors];
const LOAD_HEAD = ['route', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'];
const seconds = (ms: number | null | undefined) => (ms === null || ms === undefined ? '-' : (ms / 1000).toFixed(2));
const kib = (bytes: number) => (bytes / 1024).toFixed(1);

function format(f: Figures): string {
  const out: string[] = [];
  const cache = Object.entries(f.embed.cache)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  out.push(`Embed reads of a pending stream, ${CONNECTIONS} clients, ${benchSeconds()} s each (autocannon)`);
  out.push(...table(LOAD_HEAD, f.embed.rows.map(loadCells)));
  out.push(
    `nginx X-Cache over the cached run: ${cache} → ${f.embed.apiReadsPerSecond.toFixed(2)} reads/s reached the API`,
  );

  const c = f.crowd;
  out.push(
    '',
    `A crowd of ${c.pages} waiting pages (autocannon at their request rate, ${CONNECTIONS} connections): embed reads through nginx while pending, then master playlist reads (CDN) while live and not yet playable`,
  );
  out.push(...table(LOAD_HEAD, [loadCells(c.pending), loadCells(c.notPlayable)]));
  out.push(
    `nginx X-Cache of the waiting pages' reads: ${Object.entries(c.cache)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} → ${c.apiReadsPerSecond.toFixed(2)} reads/s reached the API (goal ≤ 2)`,
  );

  out.push(
    '',
    `A page opened before the publisher started (Chromium, fresh context; the stream's page and its channel's, both open, watched one after the other), seconds after spawning the publisher (testsrc2 720p30 → abr_basic; standard: 2 s GOP; low: 1 s GOP), watched ${WAITED_WATCH_SECONDS} s once playing`,
  );
  out.push(
    ...table(
      [
        'mode',
        'page',
        'first playable s',
        'page plays s',
        'apart s',
        'behind edge s',
        'target s',
        'first look s',
        'median s',
        'waiting events',
      ],
      f.waited.map((w) => [
        w.mode,
        w.page,
        w.playableS.toFixed(2),
        w.playingS.toFixed(2),
        (w.playingS - w.playableS).toFixed(2),
        w.latency?.toFixed(2) ?? '-',
        w.target?.toFixed(2) ?? '-',
        seconds(w.run.delays[0]),
        seconds(median(w.run.delays)),
        w.run.stalls,
      ]),
    ),
  );
  out.push('first look, median: delay behind the publisher (barcode), as below; goal: apart ≤ 1.5 s');

  out.push(
    '',
    `Beats (POST …/beat, ${f.beats[0]?.distinct ?? 0} distinct s cycled, st=p, u random), ${CONNECTIONS} clients, ${benchSeconds()} s each; then GET /v1/streams/{id}`,
  );
  out.push(
    ...table(
      [...LOAD_HEAD, 'distinct s', 'now.watching', 'exact', 'rate', 'expected'],
      f.beats.map((b) => [...loadCells(b), b.distinct, b.watching ?? 'null', String(b.exact), b.rate, b.expected]),
    ),
  );
  out.push(
    '(above 400 viewers only page loads with u < rate count, each for 1/rate; expected: that count from the u values sent, at the rate the read used)',
  );

  out.push(
    '',
    `Delay behind the publisher, glass to glass (testsrc2 720p30 x264 superfast zerolatency → abr_basic: source + 480p; Chromium), a look every ${LOOK_MS} ms for ${DELAY_SECONDS} s per page load`,
  );
  out.push(
    'standard: publisher with a 2 s GOP, 4-second pieces; low: latency_mode low, publisher with a 1 s GOP. Reference: hls.js defaults (new Hls()) on the same stream, in the same run',
  );
  out.push(
    ...table(
      [
        'mode',
        'page',
        'opened at s',
        'readable',
        'median s',
        'min s',
        'max s',
        'first look s',
        'last 20 s median',
        'waiting events',
        'hls.js stalls',
        'frozen looks',
        'on screen',
        'hls.latency s',
      ],
      f.delays.map(({ mode, player, openedAfterS0Ms, run: d }) => [
        mode,
        player,
        seconds(openedAfterS0Ms),
        `${d.delays.length}/${d.looks}`,
        seconds(median(d.delays)),
        seconds(Math.min(...d.delays)),
        seconds(Math.max(...d.delays)),
        seconds(d.delays[0]),
        seconds(median(d.delays.slice(-20_000 / LOOK_MS))),
        d.stalls,
        d.hlsStalls,
        d.frozen,
        Object.entries(d.renditions)
          .map(([k, v]) => `${k} ×${v}`)
          .join(', ') || '-',
        d.hlsLatency?.toFixed(2) ?? '-',
      ]),
    ),
  );
  out.push('delay = look time − (S0 + barcode/100); opened at: when the page was opened, after S0');
  for (const mode of ['standard', 'low'] as const) {
    const rows = f.delays.filter((r) => r.mode === mode);
    const hostedMedians = rows.filter((r) => r.player !== 'hls.js defaults').map((r) => median(r.run.delays) ?? NaN);
    const reference = median(rows.find((r) => r.player === 'hls.js defaults')?.run.delays ?? []);
    const worst = Math.max(...hostedMedians);
    out.push(
      `${mode}: hosted player, median of each page load ${hostedMedians.map((m) => seconds(m)).join(' / ')} s, worst ${seconds(worst)} s; hls.js defaults ${seconds(reference)} s (worst / reference ${reference ? (worst / reference).toFixed(2) : '-'})`,
    );
  }
  for (const { mode, player, run } of f.delays)
    if (run.levelSwitches.length > 0)
      out.push(`${mode}, ${player}: hls.js level switches (level at media time): ${run.levelSwitches.join(', ')}`);
  const t = f.timing;
  out.push(
    `S0 (media time 0 on the wall clock) from ${t.reports} progress reports (the earliest; the median one is ${t.medianLagMs?.toFixed(0) ?? '-'} ms later): ${seconds(t.s0AfterSpawnMs)} s after spawning the publisher, ${seconds(t.s0AfterOnPublishMs)} s after on_publish; playable ${seconds(t.playableAfterSpawnMs)} s after spawning`,
  );
  out.push(
    `Source segments as published (s), standard: ${f.playlist.durations.join(' ')}; highest TARGETDURATION ${f.playlist.target}`,
  );
  out.push(
    `Source segments as published (s), low: ${f.lowPlaylist.durations.join(' ')}; highest TARGETDURATION ${f.lowPlaylist.target}`,
  );
  out.push(
    `Barcode self-check on the CDN (${f.check.ok ? 'ok' : 'FAILED'}): ${f.check.segments.map((p) => `${p.segment} ${p.width}x${p.height} value ${p.value} pts ${p.ptsSeconds.toFixed(3)} (offset ${p.offsetSeconds.toFixed(3)})`).join('; ')}`,
  );

  const g = f.first.groups;
  const total = GROUPS.reduce((sum, k) => ({ requests: sum.requests + g[k].requests, bytes: sum.bytes + g[k].bytes }), {
    requests: 0,
    bytes: 0,
  });
  out.push(
    '',
    `Player page before its first frame (fresh browser context): ${seconds(f.first.toFirstFrameMs)} s from navigation (loadeddata ${seconds(f.first.toLoadedDataMs)} s, playing ${seconds(f.first.toPlayingMs)} s)`,
  );
  out.push(
    ...table(
      ['kind', 'requests', 'KiB (body + headers)'],
      [...GROUPS.map((k) => [k, g[k].requests, kib(g[k].bytes)]), ['total', total.requests, kib(total.bytes)]],
    ),
  );
  out.push(
    `segments: ${f.first.segments.join(', ') || '-'}; other: ${f.first.others.join(', ') || '-'}; ${f.first.later} more responses finished within a second after the first frame`,
  );
  return out.join('\n');
}
