/**
 * Ingest nodes (issue 31), on a primary and two ingest nodes in network namespaces on this machine
 * (bench/nodes-cluster.ts): (a) the transcoded streams one ingest node on one core sustains, and
 * two on a core each (bench/nodes-scaling.ts); (b) the timeline of a publisher's reconnect to the
 * other node after its node is killed (bench/nodes-reconnect.ts), three times.
 */
import { cpus, loadavg } from 'node:os';
import { NODE_DOWN_AFTER_MS } from '../src/domains/ledger/nodes/service.js';
import { median } from '../test/helpers/glass-to-glass.js';
import { makeClip } from '../test/helpers/publisher.js';
import { startNodesCluster, type NodesCluster } from './nodes-cluster.js';
import { reconnectOnce, type Timeline } from './nodes-reconnect.js';
import { KEEP_UP, ramp, sustainedCount, WARMUP_MS, WINDOW_MS, type Step } from './nodes-scaling.js';

const ROUNDS = 3;
const DOWN_S = NODE_DOWN_AFTER_MS / 1000;
const SOURCE = { width: 1280, height: 720, seconds: 20, gopSeconds: 2, videoKbps: 3000 };

const f2 = (n: number | null | undefined) => (n === null || n === undefined || Number.isNaN(n) ? '-' : n.toFixed(2));
const f1 = (n: number | null) => (n === null ? 'never' : `${n.toFixed(1)} s`);

function stepRows(steps: Step[]): string[] {
  const rows = [
    '| streams | per node | slowest stream | all rates (media s / wall s) | ingest1 | ingest2 | primary | PostgreSQL | lag warnings | ladders on cores |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const s of steps) {
    const rates = s.rates.map(f2);
    const slowest = Math.min(...s.rates.map((r) => r ?? 0));
    rows.push(
      `| ${s.count}${s.sustained ? '' : ' (falls behind)'} | ${Object.entries(s.perNode)
        .map(([n, k]) => `${n} ${k}`)
        .join(', ')} | ${f2(slowest)} | ${rates.join(' ')} | ${f2(s.cores.ingest1)} | ${f2(s.cores.ingest2)} | ` +
        `${f2(s.cores.primary)} | ${f2(s.cores.postgresql)} | ${s.lagWarnings} | ${Object.entries(s.ladderCores)
          .filter(([, v]) => v.length)
          .map(([n, v]) => `${n}: ${v.join('/')}`)
          .join(', ')} |`,
    );
  }
  return rows;
}

/**
 * At the step where the streams stopped keeping up: the media seconds per wall second of all
 * streams together, and per core the ingest nodes got (on a shared machine, less than their cores).
 */
const saturated = (steps: Step[], nodes: string[]) => {
  const last = steps.at(-1);
  if (!last || last.sustained) return null;
  const media = last.rates.reduce<number>((sum, r) => sum + (r ?? 0), 0);
  const cores = nodes.reduce((sum, n) => sum + (last.cores[n] ?? 0), 0);
  return { media, cores, perCore: media / cores };
};

/** The shared parts' cores per live stream at the last sustained step. */
function sharedPerStream(steps: Step[]): string {
  const s = steps.filter((x) => x.sustained).at(-1);
  if (!s) return 'no sustained step';
  return `primary ${f2(s.cores.primary! / s.count)} cores, PostgreSQL ${(s.cores.postgresql! / s.count).toFixed(3)} cores per live stream (${s.count} streams)`;
}

function timelineRows(runs: Timeline[]): string[] {
  const rows = [
    '| round | node killed → reconnected on | last heartbeat | down by its heartbeat (last + 10 s) | failover closed its session | reconnect admitted | first new segment at the origin | playable at the origin | publisher attempts |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  runs.forEach((r, i) =>
    rows.push(
      `| ${i + 1} | ${r.from} → ${r.to} | ${r.lastHeartbeat.toFixed(1)} s | ${f1(r.lastHeartbeat + DOWN_S)} | ${f1(r.knownDown)} | ${f1(r.admitted)} | ${f1(r.firstSegment)} | ${f1(r.playable)} | ${r.attempts} |`,
    ),
  );
  const mid = (k: keyof Timeline) => {
    const xs = runs.map((r) => r[k]).filter((x): x is number => typeof x === 'number' && !Number.isNaN(x));
    return xs.length === runs.length ? median(xs) : null;
  };
  rows.push(
    `| median | | ${f1(mid('lastHeartbeat'))} | ${f1(mid('lastHeartbeat') === null ? null : mid('lastHeartbeat')! + DOWN_S)} | ${f1(mid('knownDown'))} | ${f1(mid('admitted'))} | ${f1(mid('firstSegment'))} | ${f1(mid('playable'))} | |`,
  );
  return rows;
}

async function measure(c: NodesCluster, clip: string, passthroughClip: string) {
  const [primaryName] = (await c.nodeNames()).filter((n) => !n.startsWith('ingest'));
  const [ingest1, ingest2] = c.ingest as [NodesCluster['ingest'][0], NodesCluster['ingest'][0]];
  // The primary takes no publishers in this bench: the ingest nodes are measured.
  await c.setStatus(primaryName as string, 'drain');
  // The reconnects first: each killed node is started again, and both take the ramps after.
  const runs: Timeline[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [victim, other] = i % 2 === 0 ? [ingest1, ingest2] : [ingest2, ingest1];
    runs.push(await reconnectOnce(c, passthroughClip, victim, other));
    console.error(`${new Date().toISOString()} nodes: reconnect ${i + 1}: ${JSON.stringify(runs.at(-1))}`);
    await c.restart(victim);
  }
  await c.setStatus(ingest2.name, 'drain');
  const one = await ramp(c, clip, [ingest1.name], 1);
  await c.setStatus(ingest2.name, 'activate');
  const n1 = sustainedCount(one);
  // Two nodes start at n1 - 1 each, below what one sustained alone (that step is measured too).
  const two = await ramp(c, clip, [ingest1.name, ingest2.name], Math.max(1, 2 * n1 - 2));
  return { one, two, runs };
}

export async function benchNodes(): Promise<string> {
  const started = new Date();
  const loadBefore = loadavg()[0] as number;
  const clip = await makeClip(SOURCE);
  const passthroughClip = await makeClip({ width: 640, height: 360, seconds: 6, gopSeconds: 1 });
  const c = await startNodesCluster();
  let figures: Awaited<ReturnType<typeof measure>>;
  try {
    figures = await measure(c, clip, passthroughClip);
  } finally {
    await c.stop();
  }
  const { one, two, runs } = figures;
  const n1 = sustainedCount(one);
  const n2 = sustainedCount(two);
  const twoStart = two[0]?.count ?? 0;
  const n2Text = n2 === 0 && twoStart > 1 ? `fewer than ${twoStart}` : String(n2);
  const [sat1, sat2] = [saturated(one, ['ingest1']), saturated(two, ['ingest1', 'ingest2'])];
  return [
    `Ingest nodes (issue 31): ${started.toISOString()}, ${cpus()[0]?.model ?? '?'}, ${cpus().length} cores, ` +
      `1-min load average ${loadBefore.toFixed(1)} before, ${(loadavg()[0] as number).toFixed(1)} after (other work on the machine counts)`,
    "A primary (API, origin, jobs; drained: it takes no publishers here) and two ingest nodes, each in its own network namespace, on one PostgreSQL (the bench's own).",
    'ingest1 is pinned to core 0 and ingest2 to core 1 (taskset on `svc up` and every process in the namespace: nginx, ladders, the database relay);',
    'the primary, PostgreSQL, HAProxy, the publishers (ffmpeg -re -c copy, root namespace) and this bench are not pinned and share both cores.',
    '',
    `(a) Transcoded streams: source ${SOURCE.width}x${SOURCE.height} 30 fps H.264 ${SOURCE.videoKbps} kbit/s + AAC, GOP ${SOURCE.gopSeconds} s, looped;`,
    '    profile abr_basic, max_resolution 720: the source copied + a 480p rung encoded (x264 superfast), 4-s segments.',
    `    Streams added one at a time; after each, ${WARMUP_MS / 1000} s of warm-up, then a ${WINDOW_MS / 1000}-s window in which each stream's 480p playlist at the origin`,
    `    must gain at least ${KEEP_UP} media seconds per wall second. Cores used in the window per part.`,
    '',
    'One ingest node (ingest1, core 0):',
    ...stepRows(one),
    '',
    'Two ingest nodes (ingest1 core 0, ingest2 core 1):',
    ...stepRows(two),
    '',
    `N1 (one node sustains) = ${n1}; N2 (two nodes) = ${n2Text}; N2 / (2·N1) = ${n1 > 0 && n2 > 0 ? (n2 / (2 * n1)).toFixed(2) : '-'}`,
    `At the first step that fell behind, media seconds per wall second of all streams: one node ${f2(sat1?.media)}, two ${f2(sat2?.media)}` +
      (sat1 && sat2 ? ` (${(sat2.media / (2 * sat1.media)).toFixed(2)} of linear);` : ';'),
    `  per core the ingest nodes got (${f2(sat1?.cores)} and ${f2(sat2?.cores)} cores): ${f2(sat1?.perCore)} and ${f2(sat2?.perCore)}` +
      (sat1 && sat2 ? ` (${(sat2.perCore / sat1.perCore).toFixed(2)} of linear)` : ''),
    `Shared parts: one node: ${sharedPerStream(one)}; two nodes: ${sharedPerStream(two)}.`,
    "Three nodes on two cores cannot be shown here. The argument: each node's ladders are independent processes on its own cores;",
    'what the nodes share is PostgreSQL and the origin (the primary receives every segment over HTTP): their cores per live stream above say where the ceiling is.',
    '',
    `(b) Reconnect after kill -9 of every process of the node: a passthrough stream (640x360, GOP 1 s) published straight to the node,`,
    '    then a publisher retrying every second through HAProxy (checks every 1 s, fall 2) over the two ingest nodes. Seconds after the kill:',
    ...timelineRows(runs),
  ].join('\n');
}
