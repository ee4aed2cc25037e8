/**
 * The live pipeline on this machine, for a 1080p30 source published in real time: time from
 * publisher start to a playable master with a segment of every rendition (median of 3, beside
 * nginx-rtmp and the same ladder put together by hand, measured in the same run); CPU-seconds per
 * media-second of the appliance's `abr_basic` and `passthrough` pipelines over 60 s beside the same
 * ffmpeg ladder run by hand; and the streams per core this implies.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa } from 'execa';
import { DEFAULT_LIVE, DEFAULT_STREAM_COST } from '../src/config/config.js';
import { childrenOf, commandLine } from '../src/platform/process/proc.js';
import { controlRequest } from '../src/platform/nginx/nginx.js';
import { parseRtmpStat } from '../src/platform/nginx/rtmp-stat.js';
import { ladderArgs, planLadder } from '../src/platform/media/ladder.js';
import { makeClip, publish } from '../test/helpers/publisher.js';
import { playableAt } from '../test/helpers/instant-start.js';
import { startByHand, type ByHand } from './by-hand.js';

const MEDIA_SECONDS = 60;
const TICKS = 100; // getconf CLK_TCK on Linux

/** utime + stime (+ reaped children) of a process, in seconds. */
export function cpuOf(pid: number, withChildren: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .map(Number);
    // Fields after the name: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    const own = (f[11] as number) + (f[12] as number);
    return (withChildren ? own + (f[13] as number) + (f[14] as number) : own) / TICKS;
  } catch {
    return 0;
  }
}

/** The appliance process with what it reaped (ladders, probes), plus nginx's master and workers while running; `nodeOwn`: the node process alone. */
export function applianceCpu(servePid: number, dataDir: string): { node: number; nodeOwn: number; nginx: number } {
  const master = Number(readFileSync(join(dataDir, 'run', 'nginx.pid'), 'utf8'));
  const nginx = cpuOf(master, false) + childrenOf(master).reduce((sum, w) => sum + cpuOf(w, false), 0);
  return { node: cpuOf(servePid, true), nodeOwn: cpuOf(servePid, false), nginx };
}

/** The appliance's running ladders (ffmpeg writing HLS) and the CPU each has used so far. */
function ladderCpu(servePid: number): Map<number, number> {
  const ladders = childrenOf(servePid).filter((pid) => commandLine(pid)?.includes('-hls_segment_filename'));
  return new Map(ladders.map((pid) => [pid, cpuOf(pid, false)]));
}

export interface Served {
  apiUrl: string;
  rtmpUrl: string;
  playerUrl: string;
  key: string;
  dataDir: string;
  pid: number;
}

/** The appliance in its own process (`pipeline-serve.ts`), with a trusted account's key; `unlimited`: no creation limits, capacity for any number of streams. */
export async function startServe(
  opts: { unlimited?: boolean } = {},
): Promise<{ served: Served; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'pipeline-serve.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...(opts.unlimited ? { BENCH_UNLIMITED: '1' } : {}) },
  });
  const line: string = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`pipeline-serve exited ${code}`)));
  });
  return {
    served: JSON.parse(line) as Served,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

interface StreamBody {
  id: string;
  stream_key: string;
  playback_url: string;
  went_live_at: string;
}

export async function api<T = StreamBody>(s: Served, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${s.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${s.key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as T;
}

/** Seconds from `started` until the signed master and a segment of every rendition answer 200. */
export async function firstPlayable(playbackUrl: string, started: number, timeoutMs = 60_000): Promise<number> {
  return ((await playableAt(playbackUrl, timeoutMs - (Date.now() - started))) - started) / 1000;
}

interface PipelineRun {
  profile: string;
  /** Messages nginx dropped for the ladder (it fell behind). */
  dropped: number;
  /** The stream's own cost: the appliance's CPU during the run less its idle rate. */
  streamCpuPerMediaSecond: number;
  cpuPerMediaSecond: number;
  nodeShare: number;
  nginxShare: number;
  /** Per media-second: the node process itself (uploader, segment reading, the recording fed to the ladder), the ladder, the other children it reaped (stills). */
  nodeOwnShare: number;
  ladderShare: number;
  otherChildrenShare: number;
}

/** CPU-seconds per second of the appliance with nothing live (timers, jobs, the webhook poll). */
export async function idleRate(s: Served, seconds = 20): Promise<number> {
  const before = applianceCpu(s.pid, s.dataDir);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = applianceCpu(s.pid, s.dataDir);
  return (after.node + after.nginx - before.node - before.nginx) / seconds;
}

async function runAppliance(
  s: Served,
  clip: string,
  profile: 'abr_basic' | 'passthrough',
  idle: number,
): Promise<PipelineRun> {
  const stream = await api(s, 'POST', '/v1/streams', { profile, max_resolution: 1080, record: false });
  const before = applianceCpu(s.pid, s.dataDir);
  const wallStart = Date.now();
  const publisher = publish(`${s.rtmpUrl}/${stream.stream_key}`, clip, {});
  // What nginx drops for the ladder when it falls behind (a cheaper run can mean a lossy one).
  let dropped = 0;
  // A ladder's CPU, sampled while it runs (once reaped it is only part of the node's children).
  const ladders = new Map<number, number>();
  const watch = setInterval(() => {
    for (const [pid, cpu] of ladderCpu(s.pid)) ladders.set(pid, Math.max(cpu, ladders.get(pid) ?? 0));
    controlRequest(join(s.dataDir, 'run', 'nginx-control.sock'), '/stat')
      .then(
        (xml) =>
          (dropped = Math.max(dropped, parseRtmpStat(xml).find((x) => x.name === stream.id)?.playersDropped ?? 0)),
      )
      .catch(() => undefined);
  }, 1000);
  await publisher.exited;
  clearInterval(watch);
  // The ladder exits with its publisher; give the appliance a moment to reap it and publish the rest.
  await new Promise((r) => setTimeout(r, 3000));
  await api(s, 'DELETE', `/v1/streams/${stream.id}`);
  const after = applianceCpu(s.pid, s.dataDir);
  const node = after.node - before.node;
  const nodeOwn = after.nodeOwn - before.nodeOwn;
  const ladder = [...ladders.values()].reduce((a, b) => a + b, 0);
  const nginx = after.nginx - before.nginx;
  const wall = (Date.now() - wallStart) / 1000;
  return {
    profile,
    dropped,
    streamCpuPerMediaSecond: (node + nginx - idle * wall) / MEDIA_SECONDS,
    cpuPerMediaSecond: (node + nginx) / MEDIA_SECONDS,
    nodeShare: node / MEDIA_SECONDS,
    nginxShare: nginx / MEDIA_SECONDS,
    nodeOwnShare: nodeOwn / MEDIA_SECONDS,
    ladderShare: ladder / MEDIA_SECONDS,
    otherChildrenShare: (node - nodeOwn - ladder) / MEDIA_SECONDS,
  };
}

const FIRST_PICTURE_ROUNDS = 3;
/** What a first-picture publisher sends: the first 4-second piece of every rendition and slack. */
const FIRST_PICTURE_SECONDS = 15;

/** Publisher start → playable through the appliance's signed URL; and the part of it after on_publish. */
async function firstPictureAppliance(s: Served, clip: string): Promise<{ playable: number; fromOnPublish: number }> {
  const stream = await api(s, 'POST', '/v1/streams', { profile: 'abr_basic', max_resolution: 1080, record: false });
  const started = Date.now();
  const publisher = publish(`${s.rtmpUrl}/${stream.stream_key}`, clip, { seconds: FIRST_PICTURE_SECONDS });
  try {
    const playable = await firstPlayable(stream.playback_url, started);
    const live = await api(s, 'GET', `/v1/streams/${stream.id}`);
    return { playable, fromOnPublish: playable - (new Date(live.went_live_at).getTime() - started) / 1000 };
  } finally {
    await publisher.kill();
    await api(s, 'DELETE', `/v1/streams/${stream.id}`);
  }
}

/** The same from nginx-rtmp and the same ladder put together by hand (by-hand.ts). */
async function firstPictureByHand(h: ByHand, clip: string, round: number): Promise<number> {
  const name = `byhand${round}`;
  const started = Date.now();
  const publisher = publish(`${h.rtmpUrl}/${name}`, clip, { seconds: FIRST_PICTURE_SECONDS });
  try {
    return await firstPlayable(h.masterUrl(name), started);
  } finally {
    await publisher.kill();
  }
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** The same ladder by hand: ffmpeg reading the clip in real time, CPU from the shell's `times`. */
async function runByHand(clip: string, profile: 'abr_basic' | 'passthrough'): Promise<number> {
  const out = mkdtempSync(join(tmpdir(), 'svc-bench-ladder-'));
  try {
    const args = ladderArgs({
      input: clip,
      outDir: out,
      renditions: planLadder(profile, { width: 1920, height: 1080 }),
      hasAudio: true,
      preset: DEFAULT_LIVE.x264_preset,
      segmentSeconds: DEFAULT_LIVE.segment_seconds,
    });
    args.splice(args.indexOf('-i'), 0, '-re');
    const res = await execa('bash', ['-c', 'ffmpeg "$@" && times', 'bash', ...args]);
    const [, children] = res.stdout.trim().split('\n');
    const seconds = [...(children ?? '').matchAll(/(\d+)m([\d.]+)s/g)].reduce(
      (sum, m) => sum + Number(m[1]) * 60 + Number(m[2]),
      0,
    );
    return seconds / MEDIA_SECONDS;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export async function benchPipeline(): Promise<string> {
  const clip = await makeClip({ width: 1920, height: 1080, seconds: MEDIA_SECONDS, gopSeconds: 2, videoKbps: 5000 });
  const { served, stop } = await startServe();
  const runs: PipelineRun[] = [];
  const hand: Record<string, number> = {};
  const first = { appliance: [] as number[], fromOnPublish: [] as number[], byHand: [] as number[] };
  let idle = 0;
  try {
    // Rounds alternate, so that both sides see the same load from the rest of the machine.
    const byHand = await startByHand();
    try {
      for (let round = 0; round < FIRST_PICTURE_ROUNDS; round++) {
        const a = await firstPictureAppliance(served, clip);
        first.appliance.push(a.playable);
        first.fromOnPublish.push(a.fromOnPublish);
        first.byHand.push(await firstPictureByHand(byHand, clip, round));
      }
    } finally {
      await byHand.stop();
    }
    idle = await idleRate(served);
    for (const profile of ['abr_basic', 'passthrough'] as const) {
      runs.push(await runAppliance(served, clip, profile, idle));
      hand[profile] = await runByHand(clip, profile);
    }
  } finally {
    await stop();
  }
  const cores = availableParallelism();
  const runsOf = (values: number[]) => values.map((v) => `${v.toFixed(2)} s`).join(', ');
  const lines = [
    `Live pipeline, 1080p30 source at 5 Mbps (2 s GOP) published in real time, x264 ${DEFAULT_LIVE.x264_preset}, ${DEFAULT_LIVE.segment_seconds}-second pieces, ${cores} cores`,
    '',
    `| Publisher start → playable master + a piece of every rendition, 1080p abr_basic, median of ${FIRST_PICTURE_ROUNDS} | The appliance | Same nginx-rtmp + ffmpeg ladder by hand | Ratio |`,
    '|---|---|---|---|',
    `| median (runs) | ${median(first.appliance).toFixed(2)} s (${runsOf(first.appliance)}) | ${median(first.byHand).toFixed(2)} s (${runsOf(first.byHand)}) | ${(median(first.appliance) / median(first.byHand)).toFixed(2)} |`,
    '',
    `The appliance from on_publish: median ${median(first.fromOnPublish).toFixed(2)} s (${runsOf(first.fromOnPublish)}).`,
    '',
    `CPU, ${MEDIA_SECONDS} s of the same source:`,
    '',
    `The appliance idle (no stream): ${idle.toFixed(3)} CPU-s per second (timers, jobs, the webhook poll); "the stream's own" subtracts it.`,
    '',
    "| Profile | Dropped for the ladder | Appliance CPU-s / media-s | the stream's own | of which node + probes | of which nginx | Same ladder by hand | Overhead (own vs hand) |",
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of runs) {
    const byHand = hand[r.profile] as number;
    const overhead = byHand > 0 ? `${(((r.streamCpuPerMediaSecond - byHand) / byHand) * 100).toFixed(1)}%` : 'n/a';
    lines.push(
      `| ${r.profile} | ${r.dropped} | ${r.cpuPerMediaSecond.toFixed(3)} | ${r.streamCpuPerMediaSecond.toFixed(3)} | ${r.nodeShare.toFixed(3)} | ${r.nginxShare.toFixed(3)} | ${byHand.toFixed(3)} | ${overhead} |`,
    );
  }
  const abr = runs.find((r) => r.profile === 'abr_basic') as PipelineRun;
  const pass = runs.find((r) => r.profile === 'passthrough') as PipelineRun;
  lines.push(
    '',
    'Per process, CPU-s per media-second (the ladder sampled every second while it ran, so slightly low; the idle rate is not subtracted):',
    '',
    '| Profile | node itself | ladder | other children (stills) | nginx | ladder by hand |',
    '|---|---|---|---|---|---|',
  );
  for (const r of runs)
    lines.push(
      `| ${r.profile} | ${r.nodeOwnShare.toFixed(4)} | ${r.ladderShare.toFixed(4)} | ${r.otherChildrenShare.toFixed(4)} | ${r.nginxShare.toFixed(4)} | ${(hand[r.profile] as number).toFixed(4)} |`,
    );
  lines.push(
    '',
    `Streams per core (the stream's own cost): ${(1 / abr.streamCpuPerMediaSecond).toFixed(2)} 1080p abr_basic, ${(1 / pass.streamCpuPerMediaSecond).toFixed(0)} passthrough.`,
  );
  lines.push(
    `Configured costs (capacity.stream_cost, cores per stream): abr_1080 ${DEFAULT_STREAM_COST.abr_1080}, copy_only ${DEFAULT_STREAM_COST.copy_only}; admission refuses a publisher the remaining cores cannot carry.`,
  );
  return lines.join('\n');
}
