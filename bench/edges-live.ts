/**
 * The edge bench's live part, on one real stream (ffmpeg publishing a 720p clip, passthrough) seen
 * through the origin and two edges at once:
 * - when each new segment appears in the playlist at the origin and at each edge (pollers every
 *   POLL_MS): the delay an edge adds before a player can know of a segment;
 * - at that moment BURST clients per edge ask each edge for the new segment at once, and one client
 *   the origin: how long a fetch of a segment the edge does not have yet takes, against the origin's,
 *   and (from each edge's log) how many times each edge went to the origin for each segment;
 * - every LAG_EVERY_S a request at one edge, then the time until the origin's ledger has it: the
 *   edge's own log position past it, `cdn_counted_until` past it, and every byte fetched so far in
 *   `delivery_minutes`.
 */
import { Agent } from 'node:http';
import { execa } from 'execa';
import { countedUntil, deliveredBytes } from '../src/domains/ledger/cdnlog/queries.js';
import type { TestAppliance } from '../test/helpers/appliance.js';
import { streamOf } from '../test/helpers/broadcast.js';
import { fetchFrom, type Received } from '../test/helpers/cdn-viewer.js';
import { onEdge, type TestEdge } from '../test/helpers/edge.js';
import { median } from '../test/helpers/glass-to-glass.js';
import { makeClip, publish, waitFor, type Publisher } from '../test/helpers/publisher.js';

export const LIVE_SECONDS = 128;
export const POLL_MS = 50;
export const BURST = 50;
export const LAG_EVERY_S = 10;
export const STREAMS = 4;
export const STAGGER_MS = 500;
const LAG_GIVE_UP_S = 180;
export const CLIP = { width: 1280, height: 720, seconds: 12, gopSeconds: 4, videoKbps: 2800 } as const;

/** Names of the segments listed in a media playlist. */
const listed = (playlist: Buffer): string[] =>
  playlist
    .toString()
    .split('\n')
    .filter((l) => l.endsWith('.ts'));

interface Poller {
  /** Segment name → wall ms when it was first listed (segments listed at the first look are left out). */
  seen: Map<string, number>;
  stop(): Promise<void>;
}

/** Reads `url` every POLL_MS on one keep-alive connection; `onNew` for each segment it lists first. */
function poll(url: string, tally: Received, onNew: (segment: string) => void = () => undefined): Poller {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const seen = new Map<string, number>();
  const before = new Set<string>();
  let first = true;
  let running = true;
  const loop = (async () => {
    while (running) {
      const asked = Date.now();
      try {
        const res = await fetchFrom(url, { localAddress: '127.0.0.1', userAgent: 'bench-poller', agent }, tally);
        const at = Date.now();
        for (const segment of res.status === 200 ? listed(res.body) : []) {
          if (first) before.add(segment);
          else if (!before.has(segment) && !seen.has(segment)) {
            seen.set(segment, at);
            onNew(segment);
          }
        }
        if (res.status === 200) first = false;
      } catch {
        // Ask again.
      }
      await new Promise((r) => setTimeout(r, Math.max(0, POLL_MS - (Date.now() - asked))));
    }
  })();
  return {
    seen,
    async stop() {
      running = false;
      await loop;
      agent.destroy();
    },
  };
}

export interface LagSample {
  edge: string;
  /** Seconds after the request until: its edge's position, cdn_counted_until, every byte so far counted. */
  edgePosition: number | null;
  countedUntil: number | null;
  bytes: number | null;
}

export interface LiveFigures {
  segments: number;
  /** Segments listed during the second half, with the bursts. */
  burstSegments: number;
  segmentBytes: number;
  /** Per edge: ms from a segment's first listing at the origin to its first listing at the edge (first half: quiet). */
  playlistDelays: number[][];
  /** The first half's delays of each stream (both edges). */
  perStreamDelays: number[][];
  /** The same in the second half, while the bursts run. */
  burstPlaylistDelays: number[][];
  /** ms for the origin's one client to get a new segment, and per edge the median of the burst's BURST clients. */
  originFetchMs: number[];
  edgeFetchMs: number[][];
  /** Per edge, per burst: the first byte at the fastest client (its miss fetched), and the median of the others (they waited on the lock). */
  fetcherFirstByteMs: number[][];
  waiterFirstByteMs: number[][];
  /** Per edge: origin fetches (MISS/EXPIRED/...) per segment, and requests per segment. */
  originFetches: Map<string, number>[];
  requests: Map<string, number>[];
  /** Per edge: playlist fetches from the origin per second. */
  playlistFetchesPerSecond: number[];
  lag: LagSample[];
  failedRequests: number;
}

/**
 * `urls` fetched at once by curl, one connection each (in its own process: a hundred segment
 * downloads in this one would hold up the pollers' timing and the appliance living here too).
 */
async function curlAll(
  urls: string[],
  tally: Received,
): Promise<{ ms: number[]; firstByteMs: number[]; sizes: number[]; failed: number }> {
  const { stdout } = await execa('curl', [
    '-s',
    '--parallel',
    '--parallel-immediate',
    '--parallel-max',
    String(urls.length),
    '-w',
    '%{http_code} %{size_download} %{time_total} %{time_starttransfer}\\n',
    ...urls.flatMap((url) => ['-o', '/dev/null', url]),
  ]);
  const out = { ms: [] as number[], firstByteMs: [] as number[], sizes: [] as number[], failed: 0 };
  for (const line of stdout.split('\n').filter(Boolean)) {
    const [status, size, seconds, firstByte] = line.split(' ').map(Number) as [number, number, number, number];
    tally.requests++;
    if (status !== 200) {
      out.failed++;
      continue;
    }
    tally.bytes += size;
    out.sizes.push(size);
    out.ms.push(seconds * 1000);
    out.firstByteMs.push(firstByte * 1000);
  }
  out.failed += urls.length - stdout.split('\n').filter(Boolean).length;
  return out;
}

/** Log lines whose answer came from the origin: a fetch, a refresh, or a conditional request. */
const FROM_ORIGIN = new Set(['MISS', 'EXPIRED', 'BYPASS', 'REVALIDATED']);

interface LiveStream {
  id: string;
  source: string;
  base: string;
  publisher: Publisher;
}

export async function live(app: TestAppliance, edges: TestEdge[]): Promise<LiveFigures> {
  const { key } = await app.newAccount({ trusted: true });
  const clip = await makeClip(CLIP);
  const tally: Received = { bytes: 0, requests: 0, segments: 0 };
  const streams: LiveStream[] = [];
  let failedRequests = 0;
  const pollers: { stream: number; at: number; poller: Poller }[] = [];
  const bursts: Promise<void>[] = [];
  const lagChecks: Promise<LagSample>[] = [];
  try {
    // Publishers started STAGGER_MS apart: an edge refreshes a playlist on its own clock, so where a
    // stream's segments fall against it (its phase) sets that stream's delay; several streams sample it.
    for (let n = 0; n < STREAMS; n++) {
      const created = await app.call('POST', '/v1/streams', { key, body: { profile: 'passthrough' } });
      if (created.status !== 201) throw new Error(`stream: ${created.text}`);
      const publisher = publish(app.rtmpUrl(created.body.stream_key), clip, { loop: true });
      streams.push({ id: created.body.id, source: '', base: '', publisher });
      await new Promise((r) => setTimeout(r, STAGGER_MS));
    }
    for (const stream of streams) {
      const playback: string = await waitFor(
        'the stream live',
        async () => {
          const s = await streamOf(app, key, stream.id);
          return s.status === 'live' && s.playback_url;
        },
        60_000,
      );
      stream.source = playback.replace('master.m3u8', 'source.m3u8');
      stream.base = stream.source.slice(0, stream.source.lastIndexOf('/') + 1);
      await waitFor(
        'a segment at the origin',
        async () =>
          listed((await fetchFrom(stream.source, { localAddress: '127.0.0.1', userAgent: 'bench' }, tally)).body)
            .length > 0,
        60_000,
      );
    }
    const [first] = streams as [LiveStream];

    const originFetchMs: number[] = [];
    const edgeFetchMs: number[][] = edges.map(() => []);
    const fetcherFirstByteMs: number[][] = edges.map(() => []);
    const waiterFirstByteMs: number[][] = edges.map(() => []);
    const segmentSizes: number[] = [];
    let bursting = false;
    // The bursts: the first stream's new segments.
    const burst = (segment: string) => {
      if (!bursting) return;
      bursts.push(
        (async () => {
          const [origin, ...perEdge] = await Promise.all([
            curlAll([first.base + segment], tally),
            ...edges.map((edge) => curlAll(Array(BURST).fill(onEdge(app, edge, first.base + segment)), tally)),
          ]);
          for (const r of [origin, ...perEdge]) {
            failedRequests += r!.failed;
            segmentSizes.push(...r!.sizes);
          }
          originFetchMs.push(...origin!.ms);
          perEdge.forEach((r, i) => {
            edgeFetchMs[i]?.push(median(r.ms) as number);
            // The one client whose miss went to the origin answers first; the rest waited on the cache lock.
            const [fetcher, ...waiters] = [...r.firstByteMs].sort((a, b) => a - b);
            if (fetcher !== undefined) fetcherFirstByteMs[i]?.push(fetcher);
            if (waiters.length) waiterFirstByteMs[i]?.push(median(waiters) as number);
          });
        })().catch(() => {
          failedRequests++;
        }),
      );
    };
    const started = Date.now();
    streams.forEach((stream, n) => {
      pollers.push({ stream: n, at: -1, poller: poll(stream.source, tally, n === 0 ? burst : undefined) });
      edges.forEach((edge, e) =>
        pollers.push({ stream: n, at: e, poller: poll(onEdge(app, edge, stream.source), tally) }),
      );
    });

    // The ledger: a request at one edge, then how long until the origin has counted it.
    const positionOf = async (edgeId: string): Promise<Date | null> => {
      const [row] = await app.db.sql<{ counted_until: Date | null }[]>`
        select counted_until from cdn_log_position where source = ${edgeId}`;
      return row?.counted_until ?? null;
    };
    const delivered = async () =>
      (await Promise.all(streams.map((s) => deliveredBytes(app.db.sql, s.id)))).reduce((a, b) => a + b, 0);
    const lagSample = async (edge: TestEdge): Promise<LagSample> => {
      await fetchFrom(onEdge(app, edge, first.source), { localAddress: '127.0.0.1', userAgent: 'bench-ledger' }, tally);
      const t0 = Date.now();
      const bytesSoFar = tally.bytes;
      const sample: LagSample = { edge: edge.edgeId, edgePosition: null, countedUntil: null, bytes: null };
      const since = () => (Date.now() - t0) / 1000;
      while (
        since() < LAG_GIVE_UP_S &&
        [sample.edgePosition, sample.countedUntil, sample.bytes].some((s) => s === null)
      ) {
        if (sample.edgePosition === null && ((await positionOf(edge.edgeId))?.getTime() ?? 0) >= t0)
          sample.edgePosition = since();
        if (sample.countedUntil === null && ((await countedUntil(app.db.sql))?.getTime() ?? 0) >= t0)
          sample.countedUntil = since();
        if (sample.bytes === null && (await delivered()) >= bytesSoFar) sample.bytes = since();
        await new Promise((r) => setTimeout(r, 200));
      }
      return sample;
    };
    // First quiet (pollers and the ledger's requests only), then with the bursts.
    let quiet: Set<string> | null = null;
    const key0 = (stream: number, segment: string) => `${stream}/${segment}`;
    for (let i = 0; Date.now() - started < LIVE_SECONDS * 1000; i++) {
      await new Promise((r) => setTimeout(r, LAG_EVERY_S * 1000 * (0.5 + Math.random())));
      lagChecks.push(lagSample(edges[i % edges.length] as TestEdge));
      if (!bursting && Date.now() - started >= (LIVE_SECONDS * 1000) / 2) {
        quiet = new Set(
          pollers.filter((p) => p.at === -1).flatMap((p) => [...p.poller.seen.keys()].map((s) => key0(p.stream, s))),
        );
        bursting = true;
      }
    }
    const ran = (Date.now() - started) / 1000;
    for (const p of pollers) await p.poller.stop();
    await Promise.all(bursts);
    const lag = await Promise.all(lagChecks);

    const origins = pollers.filter((p) => p.at === -1);
    const quietSet = quiet ?? new Set<string>();
    /** Per edge (and per stream): ms from each segment's listing at the origin to its listing at the edge. */
    const delays = (inQuiet: boolean, stream?: number) =>
      edges.map((_, e) =>
        origins
          .filter((o) => stream === undefined || o.stream === stream)
          .flatMap((o) => {
            const at = pollers.find((p) => p.stream === o.stream && p.at === e)?.poller.seen as Map<string, number>;
            return [...o.poller.seen.entries()]
              .filter(([s]) => at.has(s) && quietSet.has(key0(o.stream, s)) === inQuiet)
              .map(([s, t]) => (at.get(s) as number) - t);
          }),
      );
    const segments = [...(origins[0]?.poller.seen.keys() ?? [])];
    const ofStream = (edge: TestEdge, id: string) => edge.lines().filter((l) => l.path.startsWith(`/${id}/`));
    const originFetches = edges.map((edge) => {
      const counts = new Map<string, number>();
      for (const l of ofStream(edge, first.id))
        if (l.path.endsWith('.ts') && segments.some((s) => l.path.endsWith(`/${s}`)))
          counts.set(l.path, (counts.get(l.path) ?? 0) + (FROM_ORIGIN.has(l.cache) ? 1 : 0));
      return counts;
    });
    const requests = edges.map((edge) => {
      const counts = new Map<string, number>();
      for (const l of ofStream(edge, first.id))
        if (l.path.endsWith('.ts')) counts.set(l.path, (counts.get(l.path) ?? 0) + 1);
      return counts;
    });
    const playlistFetchesPerSecond = edges.map(
      (edge) =>
        streams
          .map((s) => ofStream(edge, s.id).filter((l) => l.path.endsWith('.m3u8') && FROM_ORIGIN.has(l.cache)).length)
          .reduce((a, b) => a + b, 0) /
        streams.length /
        ran,
    );
    return {
      segments: origins.reduce((n, o) => n + o.poller.seen.size, 0),
      burstSegments: segments.filter((s) => !quietSet.has(key0(0, s))).length,
      segmentBytes: segmentSizes.length ? segmentSizes.reduce((a, b) => a + b, 0) / segmentSizes.length : 0,
      playlistDelays: delays(true),
      perStreamDelays: streams.map((_, n) => delays(true, n).flat()),
      burstPlaylistDelays: delays(false),
      originFetchMs,
      edgeFetchMs,
      fetcherFirstByteMs,
      waiterFirstByteMs,
      originFetches,
      requests,
      playlistFetchesPerSecond,
      lag,
      failedRequests,
    };
  } finally {
    for (const p of pollers) await p.poller.stop();
    for (const s of streams) await s.publisher.kill();
  }
}
