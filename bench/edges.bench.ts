/**
 * The edge tier (issue 30): an origin (the appliance as `svc up` runs it, its own PostgreSQL) and
 * two edges joined to it with `svc edges add` tokens, each edge with its own nginx, cache, port and
 * log shipper, all on this machine's loopback. Measures throughput against the origin and a bare
 * nginx (bench/edges-throughput.ts), then a live stream through both edges: the delay an edge adds,
 * origin fetches per segment under concurrent clients, and the log-to-ledger lag (bench/edges-live.ts).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dataPaths } from '../src/config/paths.js';
import { EDGE_DEFAULTS } from '../src/config/edge.js';
import { startTestAppliance } from '../test/helpers/appliance.js';
import { startTestEdge, type TestEdge } from '../test/helpers/edge.js';
import { median } from '../test/helpers/glass-to-glass.js';
import { startBenchDatabase } from './database.js';
import {
  BURST,
  CLIP,
  LAG_EVERY_S,
  live,
  LIVE_SECONDS,
  POLL_MS,
  STAGGER_MS,
  STREAMS,
  type LiveFigures,
} from './edges-live.js';
import {
  formatThroughput,
  PLAYLIST_SECONDS,
  ROUNDS,
  SEGMENT_BYTES,
  SEGMENT_SECONDS,
  throughput,
  WRK_CONNECTIONS,
  WRK_THREADS,
} from './edges-throughput.js';

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};
const stats = (xs: number[], unit = 's', scale = 1000): string =>
  xs.length === 0
    ? 'no samples'
    : `median ${((median(xs) as number) / scale).toFixed(2)} ${unit}, mean ${(xs.reduce((a, b) => a + b, 0) / xs.length / scale).toFixed(2)}, p90 ${(quantile(xs, 0.9) / scale).toFixed(2)}, max ${(Math.max(...xs) / scale).toFixed(2)} (${xs.length} samples)`;

/** The edge process's own warnings and errors (pino levels ≥ 40): a shipper retrying shows here. */
function edgeWarnings(edge: TestEdge): string[] {
  return readFileSync(dataPaths(edge.dataDir).edgeLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((l) => l.level >= 40)
    .map((l) => l.msg);
}

function formatLive(f: LiveFigures, edges: TestEdge[]): string[] {
  const out: string[] = [];
  out.push(
    `Live: ${STREAMS} streams (publishers started ${STAGGER_MS} ms apart), ${f.segments} new segments in ${LIVE_SECONDS} s (mean ${(f.segmentBytes / 1e6).toFixed(2)} MB); each stream's playlist polled every ${POLL_MS} ms at the origin and at each edge; first half quiet, in the second half ${BURST} clients per edge (curl, one connection each) ask each edge for each new segment of the first stream (${f.burstSegments}) as soon as the origin lists it`,
  );
  f.playlistDelays.forEach((d, i) =>
    out.push(`  edge ${i + 1}: a new segment listed at the edge after the origin, quiet: ${stats(d)}`),
  );
  out.push(
    `  the same by stream (both edges; each stream's segments fall at one phase of the edge's playlist refreshes): ${f.perStreamDelays.map((d) => `${((median(d) ?? NaN) / 1000).toFixed(2)} s`).join(', ')}`,
  );
  f.burstPlaylistDelays.forEach((d, i) => out.push(`  edge ${i + 1}: the same during the bursts: ${stats(d)}`));
  out.push(`  a new segment fetched from the origin directly (1 client, during the bursts): ${stats(f.originFetchMs)}`);
  f.edgeFetchMs.forEach((d, i) =>
    out.push(
      `  edge ${i + 1}: the same segment, not yet cached, ${BURST} clients at once (median of each burst): ${stats(d)}`,
    ),
  );
  f.fetcherFirstByteMs.forEach((d, i) =>
    out.push(
      `  edge ${i + 1}: first byte, the client whose miss went to the origin: ${stats(d)}; the ${BURST - 1} others (waiting on the cache lock): ${stats(f.waiterFirstByteMs[i] ?? [])}`,
    ),
  );
  const added = f.playlistDelays.flat();
  const lockWait = median(f.waiterFirstByteMs.flat()) ?? NaN;
  out.push(
    `  added delay through an edge ≈ playlist (quiet) ${((median(added) ?? NaN) / 1000).toFixed(2)} s median / ${(quantile(added, 0.9) / 1000).toFixed(2)} s p90 / ${(Math.max(...added) / 1000).toFixed(2)} s max, + for a viewer who asks for a segment while the edge fetches it, ${(lockWait / 1000).toFixed(2)} s median first byte (goal ≤ 0.5 s)`,
  );
  f.originFetches.forEach((counts, i) => {
    const values = [...counts.values()];
    const reqs = [...f.requests[i]!.values()];
    out.push(
      `  edge ${i + 1}: origin fetches per segment: ${values.length ? `mean ${(values.reduce((a, b) => a + b, 0) / values.length).toFixed(2)}, max ${Math.max(...values)}, min ${Math.min(...values)}` : 'none'} over ${values.length} segments (goal 1); ${(reqs.reduce((a, b) => a + b, 0) / Math.max(1, reqs.length)).toFixed(0)} requests per segment; playlist fetches from the origin ${f.playlistFetchesPerSecond[i]!.toFixed(2)}/s per stream`,
    );
  });
  out.push(`  failed requests: ${f.failedRequests}`);
  edges.forEach((edge, i) => {
    const warnings = edgeWarnings(edge);
    out.push(
      `  edge ${i + 1}: ${warnings.length} warnings in its log${warnings.length ? ` (${[...new Set(warnings)].slice(0, 3).join('; ')})` : ''}`,
    );
  });
  const col = (pick: (s: LiveFigures['lag'][number]) => number | null) => {
    const xs = f.lag.map(pick);
    const done = xs.filter((x): x is number => x !== null);
    return `${done.length ? `median ${median(done)!.toFixed(1)} s, max ${Math.max(...done).toFixed(1)} s` : '—'}${done.length < xs.length ? `, ${xs.length - done.length} not within 180 s` : ''}`;
  };
  out.push(
    `Log to ledger, ${f.lag.length} requests at the edges (alternating, every ~${LAG_EVERY_S} s) while the rest ran (goal ≤ 120 s):`,
    `  the edge's own position past the request: ${col((s) => s.edgePosition)}`,
    `  cdn_counted_until past it (every source: origin and ${edges.length} edges): ${col((s) => s.countedUntil)}`,
    `  every byte fetched so far (edges and origin) in delivery_minutes: ${col((s) => s.bytes)}`,
  );
  return out;
}

export async function benchEdges(): Promise<string> {
  const load = loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const db = await startBenchDatabase();
  // The test helper makes its database on this server.
  process.env.TEST_DATABASE_URL = db.url;
  const app = await startTestAppliance();
  const edges: TestEdge[] = [];
  try {
    for (const name of ['edge-1', 'edge-2'])
      edges.push(await startTestEdge(app, { name, settings: { log_ship_seconds: 2, heartbeat_seconds: 5 } }));
    const lines = [
      'Edge tier: an origin and two edges on this machine (2 cores, shared with their clients; loopback), each edge its own nginx (2 workers), cache and log shipper',
      `load average at start: ${load}; origin: segment_seconds ${app.config.live.segment_seconds}, window ${app.config.live.window_segments}, cdn.log_read_seconds ${app.config.cdn.log_read_seconds}; edges: log_ship_seconds ${EDGE_DEFAULTS.logShipSeconds}`,
      '',
      `Throughput: one ${(SEGMENT_BYTES / 1e6).toFixed(2)} MB segment (4 s of 720p at 2800 + 128 kb/s) and a 6-segment media playlist; wrk -t${WRK_THREADS} -c${WRK_CONNECTIONS} per way of serving (two edges: one wrk -t${WRK_THREADS / 2} -c${WRK_CONNECTIONS / 2} each, at once), ${SEGMENT_SECONDS} s segments then ${PLAYLIST_SECONDS} s playlists, ${ROUNDS} rounds in turn (figures: their total); origin nginx 1 worker (nginx-rtmp), edges and bare nginx 2`,
      '',
      ...formatThroughput(await throughput(app, edges)),
      '',
      `Publisher: ffmpeg -re -c copy of a ${CLIP.width}x${CLIP.height} 30 fps clip, ${CLIP.videoKbps} kb/s H.264 ultrafast + 96 kb/s AAC, keyframe every ${CLIP.gopSeconds} s, looped; stream profile passthrough (one rendition)`,
      ...formatLive(await live(app, edges), edges),
    ];
    return lines.join('\n');
  } finally {
    for (const edge of edges) await edge.close();
    await app.close();
    await db.stop();
  }
}
