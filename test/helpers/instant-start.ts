/**
 * A page opened before the publisher starts (docs/decisions.md, "Instant start"): when the media
 * became playable at the CDN, and where the page was when it began to play.
 */
import type { Page } from 'playwright-core';

/**
 * Wall time (ms) at which the master playlist and a piece of each rendition it lists could first
 * be read, looked at every 100 ms.
 */
export async function playableAt(playbackUrl: string, timeoutMs = 60_000): Promise<number> {
  const base = playbackUrl.replace(/master\.m3u8(\?.*)?$/, '');
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (Date.now() > until) throw new Error(`nothing playable at ${playbackUrl} within ${timeoutMs / 1000} s`);
    const master = await fetch(playbackUrl);
    if (master.status === 200) {
      const variants = [...(await master.text()).matchAll(/^(\S+\.m3u8)$/gm)].map((m) => m[1] as string);
      const segments = await Promise.all(
        variants.map(async (v) => /^(\S+\.ts)$/m.exec(await (await fetch(`${base}${v}`)).text())?.[1]),
      );
      if (
        segments.every(Boolean) &&
        (await Promise.all(segments.map(async (p) => (await fetch(`${base}${p}`)).status))).every((c) => c === 200)
      )
        return Date.now();
    } else await master.arrayBuffer();
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface PageStart {
  /** Wall time (ms) of the first `data-state="playing"`. */
  at: number;
  /** Seconds behind hls.js's estimate of the live edge then (`hls.latency`), and its target. */
  latency: number | null;
  target: number | null;
  /** The video's position and the start of what the playlist lists, seconds. */
  position: number;
  listedFrom: number | null;
  /** Pieces the playlist listed then. */
  pieces: number | null;
}

/** Before the page loads: notes where the player is when `#svc-player` first says `playing`. */
export async function recordStart(page: Page): Promise<void> {
  await page.addInitScript(`(() => {
    window.__start = null;
    const observer = new MutationObserver(() => {
      const root = document.getElementById('svc-player');
      if (!root || root.dataset.state !== 'playing' || window.__start) return;
      const p = window.svcPlayer;
      const hls = p && p.hls;
      const details = hls && hls.latestLevelDetails;
      window.__start = {
        at: Date.now(),
        latency: hls ? hls.latency : null,
        target: hls ? hls.targetLatency : null,
        position: p ? p.video.currentTime : 0,
        listedFrom: details && details.fragments.length ? details.fragments[0].start : null,
        pieces: details ? details.fragments.length : null,
      };
      observer.disconnect();
    });
    observer.observe(document, { attributes: true, subtree: true, attributeFilter: ['data-state'] });
  })()`);
}

/** What `recordStart` noted, once the page plays. */
export async function startOf(page: Page, timeoutMs = 60_000): Promise<PageStart> {
  // Functions, not strings: the page's CSP refuses eval.
  const noted = () => (window as unknown as { __start: PageStart | null }).__start;
  await page.waitForFunction(noted, undefined, { timeout: timeoutMs });
  return (await page.evaluate(noted)) as PageStart;
}
