/**
 * WHIP beside RTMP for the same 720p30 source (H.264 copied by both; WHIP's audio goes as Opus
 * and comes back as AAC): time from the WHIP POST (RTMP: the publisher's start) to a playable
 * master with a segment of every rendition, and the appliance's CPU per media-second (node with
 * what it reaped: ladder, probes and, for WHIP, the relay; plus nginx), less its idle rate. The
 * publishers run in this process, the appliance in its own (`pipeline-serve.ts`).
 */
import { api, applianceCpu, firstPlayable, idleRate, startServe, type Served } from './pipeline.bench.js';
import { makeClip, publish } from '../test/helpers/publisher.js';
import { clipSource, whipPublish } from '../test/helpers/whip-client.js';

const MEDIA_SECONDS = 30;

interface Run {
  path: string;
  firstPlayableS: number;
  cpuPerMediaSecond: number;
  ownPerMediaSecond: number;
}

interface Created {
  id: string;
  stream_key: string;
  whip_url: string;
  playback_url: string;
}

async function run(s: Served, path: 'RTMP' | 'WHIP', clip: string, idle: number): Promise<Run> {
  const stream = await api<Created>(s, 'POST', '/v1/streams', { max_resolution: 720, record: false });
  const before = applianceCpu(s.pid, s.dataDir);
  const started = Date.now();
  let done: Promise<unknown>;
  let stop = async () => {};
  if (path === 'RTMP') {
    done = publish(`${s.rtmpUrl}/${stream.stream_key}`, clip, {}).exited;
  } else {
    const pub = await whipPublish(stream.whip_url, clipSource(clip));
    if (pub.status !== 201) throw new Error(`WHIP POST answered ${pub.status}: ${pub.body}`);
    done = pub.sourceExited();
    stop = async () => {
      await pub.stop();
    };
  }
  const playable = await firstPlayable(stream.playback_url, started);
  await done;
  await stop();
  // The ladder (and the relay) exit with their publisher; give the appliance a moment to reap them.
  await new Promise((r) => setTimeout(r, 3000));
  await api(s, 'DELETE', `/v1/streams/${stream.id}`);
  const after = applianceCpu(s.pid, s.dataDir);
  const cpu = after.node + after.nginx - before.node - before.nginx;
  const wall = (Date.now() - started) / 1000;
  return {
    path,
    firstPlayableS: playable,
    cpuPerMediaSecond: cpu / MEDIA_SECONDS,
    ownPerMediaSecond: (cpu - idle * wall) / MEDIA_SECONDS,
  };
}

export async function benchWhip(): Promise<string> {
  const clip = await makeClip({
    width: 1280,
    height: 720,
    seconds: MEDIA_SECONDS,
    fps: 30,
    gopSeconds: 2,
    videoKbps: 2500,
  });
  const { served, stop } = await startServe();
  try {
    const idle = await idleRate(served, 10);
    const runs = [await run(served, 'RTMP', clip, idle), await run(served, 'WHIP', clip, idle)];
    const lines = [
      `## WHIP beside RTMP (${MEDIA_SECONDS} s of 1280x720p30 H.264 at 2.5 Mbit/s, abr_basic: source + 480p, 4-second segments)`,
      '',
      `The appliance idle: ${idle.toFixed(3)} CPU-s per second; "own" subtracts it.`,
      '',
      '| Path | First playable (master + a segment of every rendition) from the POST / publisher start | Appliance CPU-s / media-s | own |',
      '|---|---|---|---|',
      ...runs.map(
        (r) =>
          `| ${r.path} | ${r.firstPlayableS.toFixed(2)} s | ${r.cpuPerMediaSecond.toFixed(3)} | ${r.ownPerMediaSecond.toFixed(3)} |`,
      ),
    ];
    const [rtmp, whip] = runs as [Run, Run];
    lines.push(
      '',
      `WHIP costs ${(whip.ownPerMediaSecond - rtmp.ownPerMediaSecond).toFixed(3)} CPU-s per media-second more than RTMP (WebRTC receive in node, the relay's copy and Opus → AAC).`,
    );
    return lines.join('\n');
  } finally {
    await stop();
  }
}
