/**
 * The player bench's checks of the pieces on the CDN: the barcode in the first frame of each
 * (the same value in every rendition), and the source playlist as a player reads it.
 */
import { execa } from 'execa';
import { waitFor } from '../test/helpers/publisher.js';
import { decodeGray } from '../test/helpers/barcode.js';

export interface SegmentCheck {
  segment: string;
  n: number;
  width: number;
  height: number;
  value: number;
  ptsSeconds: number;
  /** Segment pts − barcode time: the ladder's timestamp offset, the same for every segment and rendition. */
  offsetSeconds: number;
}

/** The first frame of a segment on the CDN: its size, pts and barcode (ffmpeg to raw grey, read here). */
async function readSegment(url: string): Promise<Omit<SegmentCheck, 'segment' | 'n' | 'offsetSeconds'>> {
  const r = await execa(
    'ffmpeg',
    [
      '-hide_banner',
      '-nostdin',
      '-copyts',
      '-i',
      url,
      '-frames:v',
      '1',
      '-vf',
      'showinfo',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      'pipe:1',
    ],
    { encoding: 'buffer', timeout: 20_000 },
  );
  const log = new TextDecoder().decode(r.stderr);
  const info = /pts_time:([\d.]+).* s:(\d+)x(\d+)/.exec(log);
  if (!info) throw new Error(`no showinfo line for ${url}: ${log.slice(-500)}`);
  const [width, height] = [Number(info[2]), Number(info[3])];
  return { width, height, ptsSeconds: Number(info[1]), value: decodeGray(r.stdout, width, height) };
}

/**
 * Self-check of the barcode before any player: the same two segments of every rendition decode to
 * the same value, and pts − value/100 is one constant (within a frame) across them.
 */
export async function checkSegments(playbackUrl: string): Promise<{ segments: SegmentCheck[]; ok: boolean }> {
  const base = playbackUrl.replace(/master\.m3u8$/, '');
  const master = await (await fetch(playbackUrl)).text();
  const listed = async () =>
    Promise.all(
      [...master.matchAll(/^(\S+\.m3u8)$/gm)].map(async (m) => [
        ...(await (await fetch(`${base}${m[1]}`)).text()).matchAll(/^(\S+_(\d+)\.ts)$/gm),
      ]),
    );
  const newestOf = (lists: RegExpExecArray[][]) =>
    Math.min(...lists.map((segments) => Math.max(...segments.map((p) => Number(p[2])))));
  // The newest two segment numbers every rendition has published.
  const lists = await waitFor(
    'two segments of every rendition',
    async () => {
      const now = await listed();
      return newestOf(now) >= 1 && now;
    },
    30_000,
    500,
  );
  const newest = newestOf(lists);
  const segments: SegmentCheck[] = [];
  for (const list of lists) {
    for (const n of [newest - 1, newest]) {
      const file = list.find((p) => Number(p[2]) === n)?.[1];
      if (!file) continue;
      const read = await readSegment(`${base}${file}`);
      segments.push({ segment: file, n, ...read, offsetSeconds: read.ptsSeconds - read.value / 100 });
    }
  }
  const offsets = segments.map((p) => p.offsetSeconds);
  const sameValues = [newest - 1, newest].every(
    (n) => new Set(segments.filter((p) => p.n === n).map((p) => p.value)).size === 1,
  );
  const ok = segments.length >= 4 && sameValues && Math.max(...offsets) - Math.min(...offsets) <= 0.04;
  return { segments, ok };
}

export interface SegmentWatch {
  /** Highest TARGETDURATION seen, and each source segment's length in publishing order. */
  stop(): { target: number; durations: number[] };
}

/** Reads the source rendition's playlist every second, as a player would, noting each new segment. */
export function watchSegments(playbackUrl: string): SegmentWatch {
  const url = playbackUrl.replace(/master\.m3u8$/, 'source.m3u8');
  const seen = new Map<string, number>();
  let target = 0;
  const timer = setInterval(() => {
    fetch(url)
      .then(async (res) => {
        const text = await res.text();
        target = Math.max(target, Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(text)?.[1] ?? 0));
        for (const m of text.matchAll(/#EXTINF:([\d.]+),\n(\S+)/g))
          if (!seen.has(m[2] as string)) seen.set(m[2] as string, Number(m[1]));
      })
      .catch(() => undefined);
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      return { target, durations: [...seen.values()] };
    },
  };
}
