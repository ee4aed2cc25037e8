/**
 * What a viewer downloads before the first picture: the hosted player page opened in a fresh
 * browser context (empty cache), every response finished before the video's first frame, by kind.
 */
import type { Browser } from 'playwright-core';
import { waitFor } from '../test/helpers/publisher.js';

export const GROUPS = ['page HTML', 'player script', 'hls.js', 'embed read', 'playlists', 'segments', 'other'] as const;
type Group = (typeof GROUPS)[number];

export interface FirstFrame {
  /** Navigation start → first frame presented (requestVideoFrameCallback, else `playing`), ms. */
  toFirstFrameMs: number;
  toLoadedDataMs: number | null;
  toPlayingMs: number | null;
  groups: Record<Group, { requests: number; bytes: number }>;
  /** Finished after the first frame (not counted above). */
  later: number;
  /** Which segments (file names: the rendition hls.js started on) and what "other" was. */
  segments: string[];
  others: string[];
}

function groupOf(url: string, resourceType: string): Group {
  const path = new URL(url).pathname;
  if (resourceType === 'document') return 'page HTML';
  if (path.startsWith('/assets/player.')) return 'player script';
  if (path.startsWith('/assets/hls.')) return 'hls.js';
  if (/^\/api\/embed\/[^/]+$/.test(path)) return 'embed read';
  if (path.endsWith('.m3u8')) return 'playlists';
  if (path.endsWith('.ts')) return 'segments';
  return 'other';
}

// Media events do not bubble, but a capturing listener on the document sees them.
const MARKS = `
window.__benchFirst = { loadeddata: null, playing: null, frame: null };
document.addEventListener('loadeddata', (e) => {
  const f = window.__benchFirst;
  if (f.loadeddata !== null) return;
  f.loadeddata = Date.now();
  if (e.target.requestVideoFrameCallback) e.target.requestVideoFrameCallback(() => { f.frame ??= Date.now(); });
}, true);
document.addEventListener('playing', () => { window.__benchFirst.playing ??= Date.now(); }, true);
`;

interface Finished {
  group: Group;
  path: string;
  bytes: number;
  at: number;
}

export async function firstFrame(browser: Browser, url: string): Promise<FirstFrame> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(MARKS);
    const finished: Promise<Finished>[] = [];
    page.on('requestfinished', (request) => {
      // blob: and data: (hls.js's worker) never touch the network.
      if (!/^https?:/.test(request.url())) return;
      const done = (async () => {
        const sizes = await request.sizes();
        const timing = request.timing();
        const at = timing.responseEnd >= 0 ? timing.startTime + timing.responseEnd : Date.now();
        return {
          group: groupOf(request.url(), request.resourceType()),
          path: new URL(request.url()).pathname,
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
          at,
        };
      })();
      // A request that finishes as the context closes is dropped, not an unhandled rejection.
      done.catch(() => undefined);
      finished.push(done);
    });
    const started = Date.now();
    await page.goto(url);
    const marks = await waitFor(
      'the first frame',
      async () => {
        const m = (await page.evaluate('window.__benchFirst')) as {
          loadeddata: number | null;
          playing: number | null;
          frame: number | null;
        };
        return (m.frame ?? m.playing) === null ? null : m;
      },
      30_000,
      50,
    );
    const first = (marks.frame ?? marks.playing) as number;
    // Responses that finished just before the frame may be reported a little after it.
    await new Promise((r) => setTimeout(r, 1000));
    const all = (await Promise.allSettled(finished)).flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const groups = Object.fromEntries(GROUPS.map((g) => [g, { requests: 0, bytes: 0 }])) as FirstFrame['groups'];
    const before = all.filter((x) => x.at <= first);
    for (const f of before) {
      groups[f.group].requests += 1;
      groups[f.group].bytes += f.bytes;
    }
    const since = (t: number | null) => (t === null ? null : t - started);
    return {
      toFirstFrameMs: first - started,
      toLoadedDataMs: since(marks.loadeddata),
      toPlayingMs: since(marks.playing),
      groups,
      later: all.length - before.length,
      segments: before.filter((x) => x.group === 'segments').map((x) => x.path.split('/').pop() as string),
      others: before.filter((x) => x.group === 'other').map((x) => x.path),
    };
  } finally {
    await context.close();
  }
}
