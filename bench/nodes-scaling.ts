/**
 * How many transcoded streams the open ingest nodes sustain: streams are added one at a time, and
 * after each a window is measured in which every stream's encoded rendition must reach the
 * origin in real time. A ladder that cannot keep up falls behind nginx's recording it reads
 * (docs/decisions.md, "First picture"): its segments then reach the origin slower than wall clock.
 * The rate of one stream is the media seconds of its segments that appeared at the origin in the
 * window over the wall time between the first and the last of them (playlist polled every 300 ms).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseMediaPlaylist } from '../src/platform/media/playlist.js';
import { publish, waitFor, type Publisher } from '../test/helpers/publisher.js';
import { sleep } from '../test/helpers/streams.js';
import { allowedCores, cpuSecondsOf, LIVE_AT_ONCE, type NodesCluster } from './nodes-cluster.js';
import { childrenOf, commandLine } from '../src/platform/process/proc.js';

/** After a stream is added: its ladder reads its start-up backlog at once, and the others feel the newcomer. */
export const WARMUP_MS = 8000;
export const WINDOW_MS = 24_000;
const POLL_MS = 300;
/** Below this, a stream's playlist does not keep up with wall clock (the brief: more than 5% behind). */
export const KEEP_UP = 0.95;
const LAG_WARNING = 'the ladder is not keeping up';

interface Watched {
  id: string;
  node: string;
  publisher: Publisher;
  /** Each segment of the encoded rendition: when it was first listed at the origin, and its length. */
  seen: Map<string, { at: number; duration: number }>;
  stop(): void;
}

export interface Step {
  count: number;
  perNode: Record<string, number>;
  /** Each stream's media seconds per wall second in the window, in the order they were added. */
  rates: (number | null)[];
  /** Cores used over the window: each ingest node (all its namespace), the primary, PostgreSQL. */
  cores: Record<string, number>;
  /** Lines "the ladder is not keeping up" the ingest nodes logged during the step. */
  lagWarnings: number;
  /** The cores the ladders were allowed, per node (`Cpus_allowed_list`). */
  ladderCores: Record<string, string[]>;
  sustained: boolean;
}

export function rateOf(w: Watched, from: number, to: number): number | null {
  const inWindow = [...w.seen.values()].filter((s) => s.at >= from && s.at <= to).sort((a, b) => a.at - b.at);
  if (inWindow.length < 3) return null;
  const wall = (inWindow.at(-1)!.at - inWindow[0]!.at) / 1000;
  const media = inWindow.slice(1).reduce((sum, s) => sum + s.duration, 0);
  return wall > 0 ? media / wall : null;
}

async function watch(c: NodesCluster, clip: string): Promise<Watched> {
  const { id, rtmp_url: rtmp, stream_key: key } = await c.createStream({ max_resolution: 720 });
  const publisher = publish(`${rtmp}/${key}`, clip, { loop: true });
  // The encoded rung (480p): the one whose pace is the ladder's.
  const media = await c.mediaPlaylist(id, (uri) => uri.includes('480p'));
  const seen = new Map<string, { at: number; duration: number }>();
  let stopped = false;
  void (async () => {
    while (!stopped) {
      try {
        const res = await fetch(media, { signal: AbortSignal.timeout(5000) });
        if (res.status === 200) {
          const at = Date.now();
          for (const s of parseMediaPlaylist(await res.text()).segments)
            if (!seen.has(s.uri)) seen.set(s.uri, { at, duration: s.duration });
        }
      } catch {
        // The next poll tells.
      }
      await sleep(POLL_MS);
    }
  })();
  await waitFor(`${id} at the origin`, async () => seen.size > 0, 60_000);
  return {
    id,
    node: (await c.nodeOf(id)) ?? '?',
    publisher,
    seen,
    stop: () => {
      stopped = true;
    },
  };
}

const lagWarnings = (c: NodesCluster, nodes: string[]) =>
  nodes.reduce((sum, name) => {
    const file = c.logOf(name);
    return sum + (existsSync(file) ? readFileSync(file, 'utf8').split(LAG_WARNING).length - 1 : 0);
  }, 0);

/** Every ffmpeg in a namespace (the ladders), by pid. */
const ffmpegsIn = (pids: number[]) => pids.filter((pid) => commandLine(pid)?.[0]?.endsWith('ffmpeg'));

function coresUsed(c: NodesCluster) {
  const groups: Record<string, () => number[]> = {
    ...Object.fromEntries(c.ingest.map((n) => [n.name, () => n.pids()])),
    primary: () => c.primary.pids(),
    postgresql: () => [c.postmasterPid, ...childrenOf(c.postmasterPid)],
  };
  const start = Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, cpuSecondsOf(pids())]));
  const t0 = performance.now();
  return () => {
    const seconds = (performance.now() - t0) / 1000;
    return Object.fromEntries(
      Object.entries(groups).map(([k, pids]) => [k, (cpuSecondsOf(pids()) - (start[k] as number)) / seconds]),
    );
  };
}

/**
 * Streams on the open ingest nodes from `start` up, one more per step, until a step in which some
 * stream falls below KEEP_UP (or LIVE_AT_ONCE): the steps measured, and the streams ended after.
 */
export async function ramp(c: NodesCluster, clip: string, nodes: string[], start: number): Promise<Step[]> {
  const streams: Watched[] = [];
  const steps: Step[] = [];
  try {
    for (let count = Math.max(1, start); count <= LIVE_AT_ONCE; count++) {
      while (streams.length < count) streams.push(await watch(c, clip));
      const warnedBefore = lagWarnings(c, nodes);
      await sleep(WARMUP_MS);
      const from = Date.now();
      const used = coresUsed(c);
      await sleep(WINDOW_MS);
      const to = Date.now();
      const cores = used();
      const rates = streams.map((w) => rateOf(w, from, to));
      const ladderCores = Object.fromEntries(
        c.ingest.map((n) => [n.name, [...new Set(ffmpegsIn(n.pids()).map((pid) => allowedCores(pid) ?? '?'))]]),
      );
      const perNode: Record<string, number> = {};
      for (const w of streams) perNode[w.node] = (perNode[w.node] ?? 0) + 1;
      const sustained = rates.every((r) => r !== null && r >= KEEP_UP);
      steps.push({
        count,
        perNode,
        rates,
        cores,
        lagWarnings: lagWarnings(c, nodes) - warnedBefore,
        ladderCores,
        sustained,
      });
      // As it goes (stderr): a long run that fails later keeps what it measured.
      console.error(
        `${new Date().toISOString()} nodes: ${count} streams on ${nodes.join('+')}: rates ${rates.map((r) => r?.toFixed(3)).join(' ')}, ` +
          `cores ${JSON.stringify(cores, (_k, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(3)) : v))}`,
      );
      if (!sustained) break;
    }
  } finally {
    for (const w of streams) {
      w.stop();
      await w.publisher.kill();
      await c.api('DELETE', `/v1/streams/${w.id}`);
    }
  }
  return steps;
}

/** The streams of the last step in which every stream kept up (0: none did). */
export const sustainedCount = (steps: Step[]): number => steps.filter((s) => s.sustained).at(-1)?.count ?? 0;
