/**
 * Restreaming (issue 32), with the appliance's own pushes to a second nginx-rtmp on loopback
 * (test/helpers/rtmp-receiver.ts): (a) CPU of each copy push with five outputs on one 720p30 stream
 * whose `abr_basic` ladder runs beside them on this machine's cores, and whether every output keeps
 * up; (b) the delay a push adds: a barcode publisher's frames read at the receiver, published to it
 * directly vs through svc (an output that starts with the session, and one added while live).
 */
import { cpus } from 'node:os';
import { execa } from 'execa';
import { cpuSeconds, findProcesses } from '../src/platform/process/proc.js';
import { startTestAppliance, type TestAppliance } from '../test/helpers/appliance.js';
import { decodeGray, GEOMETRY } from '../test/helpers/barcode.js';
import { median, publishBarcode, type BarcodePublisher } from '../test/helpers/glass-to-glass.js';
import { makeClip, publish, waitFor } from '../test/helpers/publisher.js';
import { startRtmpReceiver, type RtmpReceiver } from '../test/helpers/rtmp-receiver.js';
import { startBenchDatabase } from './database.js';

const OUTPUTS = 5;
const CPU_SECONDS = 30;
const DELAY_SECONDS = 20;
/** The delay runs' source: small, so that its encoder does not weigh on what is measured. */
const BARCODE_WIDTH = 640;
const SOURCE = { width: 1280, height: 720, seconds: 20, gopSeconds: 2, videoKbps: 3000 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (n: number | null) => (n === null ? '-' : `${Math.round(n)} ms`);

/**
 * Reads the stream at `url` as it arrives (only the barcode strip, grey) for `seconds`; the delay
 * of each frame behind the publisher's media clock, ms, in arrival order.
 */
async function barcodeDelays(url: string, publisher: BarcodePublisher, seconds: number): Promise<number[]> {
  const height = Math.round((BARCODE_WIDTH * GEOMETRY.height) / GEOMETRY.width);
  const strip = Math.ceil((GEOMETRY.stripHeight * height) / GEOMETRY.height);
  const frameBytes = BARCODE_WIDTH * strip;
  const reader = execa(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...['-fflags', 'nobuffer', '-flags', 'low_delay', '-probesize', '32768', '-analyzeduration', '0'],
      ...['-i', url, '-an', '-vf', `crop=${BARCODE_WIDTH}:${strip}:0:0`],
      ...['-f', 'rawvideo', '-pix_fmt', 'gray', '-flush_packets', '1', 'pipe:1'],
    ],
    { reject: false, buffer: false, encoding: 'buffer', stdin: 'ignore' },
  );
  const arrivals: { at: number; value: number }[] = [];
  let pending = Buffer.alloc(0);
  reader.stdout?.on('data', (chunk: Buffer) => {
    const at = Date.now();
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= frameBytes) {
      // The strip is the picture's top: block centres keep their coordinates.
      arrivals.push({ at, value: decodeGray(pending.subarray(0, frameBytes), BARCODE_WIDTH, height) });
      pending = pending.subarray(frameBytes);
    }
  });
  await sleep(seconds * 1000);
  reader.kill('SIGKILL');
  await reader;
  const s0 = publisher.s0();
  return arrivals.map((a) => a.at - s0 - a.value * 10);
}

/** Median delay of the second half of a reading (the first frames come in a burst from the last keyframe). */
const steady = (delays: number[]) => median(delays.slice(Math.floor(delays.length / 2)));

async function delayRows(app: TestAppliance, receiver: RtmpReceiver): Promise<string[]> {
  const rows = [
    '| path | frames read | delay behind the publisher (median, steady) | added by svc |',
    '|---|---|---|---|',
  ];
  // Directly: what the reading itself costs (decode, pipes).
  const direct = publishBarcode(`${receiver.url}/direct`, DELAY_SECONDS + 15, { width: BARCODE_WIDTH });
  await waitFor('the direct publisher', () => receiver.publishing('direct'), 30_000);
  const directDelays = await barcodeDelays(`${receiver.url}/direct`, direct, DELAY_SECONDS);
  await direct.kill();
  const base = steady(directDelays);
  rows.push(`| publisher → receiver | ${directDelays.length} | ${ms(base)} | - |`);

  const account = await app.newAccount();
  const created = await app.call('POST', '/v1/streams', { key: account.key, body: { profile: 'passthrough' } });
  const id = created.body.id as string;
  const output = (key: string) =>
    app.call('POST', `/v1/streams/${id}/outputs`, {
      key: account.key,
      body: { url: receiver.url, stream_key: key, name: key },
    });
  await output('first');
  const publisher = publishBarcode(app.rtmpUrl(created.body.stream_key), DELAY_SECONDS * 2 + 40, {
    width: BARCODE_WIDTH,
  });
  await waitFor('the output that starts with the session', () => receiver.publishing('first'), 60_000);
  await output('later');
  await waitFor('the output added while live', () => receiver.publishing('later'), 60_000);
  for (const [key, path] of [
    ['first', 'publisher → svc → receiver (output there at the start: reads the session from its first byte)'],
    ['later', 'publisher → svc → receiver (output added while live: pulls the live stream)'],
  ] as const) {
    const delays = await barcodeDelays(`${receiver.url}/${key}`, publisher, DELAY_SECONDS);
    const d = steady(delays);
    rows.push(`| ${path} | ${delays.length} | ${ms(d)} | ${d === null || base === null ? '-' : ms(d - base)} |`);
  }
  await publisher.kill();
  await app.call('DELETE', `/v1/streams/${id}`, { key: account.key });
  return rows;
}

async function cpuRows(app: TestAppliance, receiver: RtmpReceiver): Promise<string[]> {
  const clip = await makeClip(SOURCE);
  const account = await app.newAccount();
  const created = await app.call('POST', '/v1/streams', { key: account.key, body: { profile: 'abr_basic' } });
  const id = created.body.id as string;
  const keys = Array.from({ length: OUTPUTS }, (_, i) => `out${i + 1}`);
  for (const key of keys)
    await app.call('POST', `/v1/streams/${id}/outputs`, {
      key: account.key,
      body: { url: receiver.url, stream_key: key },
    });
  const publisher = publish(app.rtmpUrl(created.body.stream_key), clip, { loop: true });
  try {
    for (const key of keys) await waitFor(`output ${key}`, () => receiver.publishing(key), 60_000);
    await sleep(5000);
    const pushes = findProcesses(
      (argv) => argv[0]?.endsWith('ffmpeg') === true && argv.some((a) => a.includes(`:${receiver.port}/`)),
    );
    const readBytes = async () =>
      (
        await app.db.sql<{ bytes_sent: string }[]>`select bytes_sent::text from stream_outputs where stream_id = ${id}`
      ).map((r) => Number(r.bytes_sent));
    const before = pushes.map((pid) => cpuSeconds(pid) ?? 0);
    const bytesBefore = await readBytes();
    const sentBefore = publisher.sentSeconds();
    const t0 = performance.now();
    await sleep(CPU_SECONDS * 1000);
    const wall = (performance.now() - t0) / 1000;
    const cores = pushes.map((pid, i) => ((cpuSeconds(pid) ?? 0) - (before[i] as number)) / wall);
    const bytesAfter = await readBytes();
    const media = publisher.sentSeconds() - sentBefore;
    const kbps = bytesAfter.map((b, i) => ((b - (bytesBefore[i] ?? 0)) * 8) / 1000 / wall);
    const stream = await app.call('GET', `/v1/streams/${id}`, { key: account.key });
    const total = cores.reduce((a, b) => a + b, 0);
    return [
      '| outputs | pushes found | cores per push (each) | all pushes | kbit/s per output (bytes_sent) | publisher media s / wall s | stream |',
      '|---|---|---|---|---|---|---|',
      `| ${OUTPUTS} | ${pushes.length} | ${cores.map((c) => c.toFixed(4)).join(' ')} | ${total.toFixed(3)} | ${kbps.map((k) => k.toFixed(0)).join(' ')} | ${(media / wall).toFixed(2)} | ${stream.body.status} |`,
    ];
  } finally {
    await publisher.kill();
    await app.call('DELETE', `/v1/streams/${id}`, { key: account.key });
  }
}

export async function benchOutputs(): Promise<string> {
  const db = await startBenchDatabase();
  // The test helper makes its database on this server.
  process.env.TEST_DATABASE_URL = db.url;
  const receiver = await startRtmpReceiver();
  const app = await startTestAppliance({ allow_private_outputs: true });
  try {
    const cpu = await cpuRows(app, receiver);
    const delay = await delayRows(app, receiver);
    return [
      `## Restreaming (${cpus().length} cores; receiver: nginx-rtmp on loopback)`,
      '',
      `CPU: one stream, profile abr_basic (its ladder on the same cores), source ${SOURCE.width}x${SOURCE.height} 30 fps ` +
        `H.264 ${SOURCE.videoKbps} kbit/s + AAC (a looped clip), ${OUTPUTS} outputs, ${CPU_SECONDS} s from /proc:`,
      '',
      ...cpu,
      '',
      `Delay: barcode publisher ${BARCODE_WIDTH}px x264 zerolatency, GOP 2 s, frames read at the receiver ` +
        `(ffmpeg, top strip only) for ${DELAY_SECONDS} s, median of the second half:`,
      '',
      ...delay,
    ].join('\n');
  } finally {
    await app.close();
    await receiver.close();
    await db.stop();
  }
}
