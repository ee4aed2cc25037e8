/**
 * Delay behind the publisher, glass to glass on this machine: the frame with barcode value v
 * was captured at S0 + v/100 s, S0 being when the publisher's media clock started on the wall
 * clock; a player showing it at wall time T is T − S0 − v/100 behind.
 */
import type { Page } from 'playwright-core';
import { runPublisher, type Publisher } from './publisher.js';
import { barcodePublisherArgs, blockCentres, decodeLumas, GEOMETRY } from './barcode.js';

export const median = (xs: number[]): number | null => {
  if (xs.length === 0) return null;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

export interface BarcodePublisher extends Publisher {
  /**
   * The wall time (ms) of media time 0: the smallest (read at − out_time) over ffmpeg's progress
   * reports. Each is S0 plus the time from a frame's release by `-re` to the report, less the
   * length of the last packet muxed (out_time is where it ends): between S0 − 33 ms and
   * S0 + the fastest encode-to-report time.
   */
  s0(): number;
  reports(): number;
  /** Median of (read at − out_time) less S0: how late a typical report is, ms. */
  medianLagMs(): number | null;
}

/** The live publisher (`barcodePublisherArgs`) with its media clock on the wall clock. */
export function publishBarcode(
  url: string,
  seconds: number,
  opts: { gopSeconds?: number; videoKbps?: number; width?: number } = {},
): BarcodePublisher {
  const starts: number[] = [];
  let s0 = Infinity;
  const publisher = runPublisher(
    barcodePublisherArgs(url, {
      seconds,
      preset: 'superfast',
      videoKbps: opts.videoKbps ?? 2500,
      ...(opts.gopSeconds ? { gopSeconds: opts.gopSeconds } : {}),
      ...(opts.width ? { width: opts.width } : {}),
    }),
    (out, at) => {
      starts.push(at - out * 1000);
      s0 = Math.min(s0, at - out * 1000);
    },
  );
  const medianLagMs = () => {
    const m = median(starts);
    return m === null ? null : m - s0;
  };
  return { ...publisher, s0: () => s0, reports: () => starts.length, medianLagMs };
}

export interface Sample {
  now: number;
  width: number;
  height: number;
  lumas?: number[];
  level?: number | null;
  latency?: number | null;
}

/**
 * One look at the player: the picture on screen drawn into a canvas and the luma at each block's
 * centre read, for the size the caller expects (else only the size, so the caller can ask again).
 */
function lookExpression(width: number, height: number): string {
  const args = {
    w: width,
    h: height,
    strip: Math.ceil((GEOMETRY.stripHeight * height) / GEOMETRY.height),
    centres: blockCentres(width, height),
  };
  return `(() => {
    const p = window.svcPlayer, v = p.video, a = ${JSON.stringify(args)}, now = Date.now();
    if (v.videoWidth !== a.w || v.videoHeight !== a.h) return { now, width: v.videoWidth, height: v.videoHeight };
    const c = (window.__benchCanvas ??= document.createElement('canvas'));
    c.width = a.w;
    c.height = a.strip;
    const g = c.getContext('2d', { willReadFrequently: true });
    g.drawImage(v, 0, 0);
    const d = g.getImageData(0, 0, a.w, a.strip).data;
    const lumas = a.centres.map(({ x, y }) => { const i = (y * a.w + x) * 4; return 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]; });
    const level = p.hls && p.hls.currentLevel >= 0 ? p.hls.levels[p.hls.currentLevel].height : null;
    return { now, width: a.w, height: a.h, lumas, level, latency: p.hls ? p.hls.latency : null };
  })()`;
}

export interface DelayRun {
  /** Delay of each readable look in order, ms. */
  delays: number[];
  looks: number;
  unreadable: number;
  /** Looks that showed the same frame as the one before: the picture stood still. */
  frozen: number;
  /** `waiting` events of the video element. */
  stalls: number;
  /** hls.js's own stall reports (`bufferStalledError`). */
  hlsStalls: number;
  /** Looks per rendition height on screen. */
  renditions: Record<string, number>;
  /** hls.js's own latency estimate (s), median. */
  hlsLatency: number | null;
  levelSwitches: string[];
}

/** Looks at a playing player every `everyMs` for `seconds`; delays against the publisher's S0 (read at the end). */
export async function measureDelay(
  page: Page,
  publisher: BarcodePublisher,
  seconds: number,
  everyMs = 500,
): Promise<DelayRun> {
  await page.evaluate(`(() => {
    const p = window.svcPlayer;
    window.__bench = { stalls: 0, hlsStalls: 0, switches: [] };
    p.video.addEventListener('waiting', () => window.__bench.stalls++);
    if (p.hls) p.hls.on('hlsError', (_e, d) => { if (d.details === 'bufferStalledError') window.__bench.hlsStalls++; });
    if (p.hls) p.hls.on('hlsLevelSwitched', (_e, d) => window.__bench.switches.push(String(p.hls.levels[d.level].height) + 'p at ' + p.video.currentTime.toFixed(1)));
  })()`);
  const samples: Sample[] = [];
  let size = { width: 0, height: 0 };
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const next = Date.now() + everyMs;
    let look = (await page.evaluate(lookExpression(size.width, size.height))) as Sample;
    if (!look.lumas && look.width > 0) {
      size = { width: look.width, height: look.height };
      look = (await page.evaluate(lookExpression(size.width, size.height))) as Sample;
    }
    samples.push(look);
    await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
  }
  const { stalls, hlsStalls, switches } = (await page.evaluate('window.__bench')) as {
    stalls: number;
    hlsStalls: number;
    switches: string[];
  };
  const s0 = publisher.s0();
  const delays: number[] = [];
  const renditions: Record<string, number> = {};
  let unreadable = 0;
  let frozen = 0;
  let previous = -1;
  for (const look of samples) {
    const value = look.lumas ? decodeLumas(look.lumas) : -1;
    if (value >= 0 && value === previous) frozen += 1;
    previous = value;
    const delay = look.now - (s0 + value * 10);
    // A value from the future, or older than a minute, is a misread (or no picture yet).
    if (value < 0 || delay < 0 || delay > 60_000) {
      unreadable += 1;
      continue;
    }
    delays.push(delay);
    const key = `${look.height}p`;
    renditions[key] = (renditions[key] ?? 0) + 1;
  }
  return {
    delays,
    looks: samples.length,
    unreadable,
    frozen,
    stalls,
    hlsStalls,
    renditions,
    hlsLatency: median(samples.flatMap((s) => (typeof s.latency === 'number' ? [s.latency] : []))),
    levelSwitches: switches,
  };
}
