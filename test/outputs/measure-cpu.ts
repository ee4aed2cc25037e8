import { execa } from 'execa';
import { cpuSeconds } from '../../src/platform/process/proc.js';
import { pushArgs } from '../../src/domains/engine/outputs/push-args.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { startRtmpReceiver } from '../helpers/rtmp-receiver.js';

/**
 * CPU of one copy push (the appliance's own argv): a 720p30 H.264 + AAC source published to a
 * loopback nginx-rtmp, pushed by ffmpeg to another application of it, /proc over 30 s.
 * Run: node --import tsx test/outputs/measure-cpu.ts
 */
const SECONDS = 30;
const clip = await makeClip({ width: 1280, height: 720, seconds: 20, gopSeconds: 2, videoKbps: 3000 });
const nginx = await startRtmpReceiver();
const source = publish(`${nginx.url}/src`, clip, { loop: true });
await waitFor('source', () => nginx.publishing('src'));
const args = pushArgs(
  { kind: 'live', url: `${nginx.url}/src` },
  { url: nginx.url, key: 'dst', address: '127.0.0.1', family: 4 },
);
const push = execa('ffmpeg', args, { reject: false, buffer: false, stdin: 'ignore' });
await waitFor('push', () => nginx.publishing('dst'));
await new Promise((r) => setTimeout(r, 3000));
const pid = push.pid as number;
const before = cpuSeconds(pid) as number;
const t0 = performance.now();
await new Promise((r) => setTimeout(r, SECONDS * 1000));
const used = (cpuSeconds(pid) as number) - before;
const wall = (performance.now() - t0) / 1000;
console.log(
  `copy push of a 720p30 3 Mbit/s source: ${(used / wall).toFixed(4)} cores (${used.toFixed(2)} CPU s over ${wall.toFixed(1)} s)`,
);
push.kill('SIGKILL');
await source.kill();
await nginx.close();
