import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { recordingMatches, streamOf } from '../helpers/broadcast.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../../src/core/clock.js';
import { deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { createLogger } from '../../src/core/logger.js';
import { OutputPush } from '../../src/domains/engine/outputs/pusher.js';
import type { PushRow } from '../../src/domains/engine/outputs/push-queries.js';
import { systemLookup } from '../../src/platform/http/ssrf.js';
import { Supervisor } from '../../src/platform/process/supervisor.js';
import { findProcesses } from '../../src/platform/process/proc.js';
import {
  insertOutput,
  startRtmpReceiver,
  startSrtListener,
  startThrottle,
  type RtmpReceiver,
} from '../helpers/rtmp-receiver.js';
import { Receiver } from '../helpers/receiver.js';
import { sleep } from '../helpers/streams.js';

/**
 * Restreaming, the pushing side: a live stream's enabled outputs receive the source as sent (RTMP,
 * RTMPS, SRT receivers on loopback), follow changes of their rows while live, fail and recover
 * without touching the stream, and stop with it. Rows are written with SQL (the API's tests
 * cover how they are made).
 */
let app: TestAppliance;
let account: { id: string; key: string };
let clip: string;
const publishers: Publisher[] = [];
const receivers: RtmpReceiver[] = [];
/** A webhook endpoint subscribed to the `output.*` events. */
let hooks: Receiver;

/** The CAs pushes trust (`output_ca_file`): a TLS receiver's is added when the test trusts it. */
const trusted = join(mkdtempSync(join(tmpdir(), 'svc-test-cas-')), 'cas.pem');

test.before(async () => {
  writeFileSync(trusted, '');
  app = await startTestAppliance({
    allow_private_outputs: true,
    allow_private_webhooks: true,
    output_ca_file: trusted,
  });
  account = await app.newAccount();
  hooks = await Receiver.start();
  const endpoint = await app.call('POST', '/v1/webhooks', {
    key: account.key,
    body: { url: hooks.url('/outputs'), events: ['output.connected', 'output.errored', 'output.disconnected'] },
  });
  assert.is(endpoint.status, 201, endpoint.text);
  hooks.expectSecrets('/outputs', endpoint.body.secret as string);
  clip = await makeClip({ width: 320, height: 240, seconds: 10, gopSeconds: 1 });
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
  await Promise.all(receivers.map((r) => r.close()));
  await hooks.close();
});

async function receiver(
  opts: { tls?: boolean; refuseKeys?: boolean; untrusted?: boolean } = {},
): Promise<RtmpReceiver> {
  const r = await startRtmpReceiver(opts);
  receivers.push(r);
  if (r.caPem && !opts.untrusted) appendFileSync(trusted, r.caPem);
  return r;
}

/** An output of this file's account's stream, written as the API would. */
const outputTo = (streamId: string, url: string, key: string) =>
  insertOutput(app.db.sql, { streamId, accountId: account.id, url, key });

function publishTo(streamKey: string): Publisher {
  const p = publish(app.rtmpUrl(streamKey), clip, { loop: true });
  publishers.push(p);
  return p;
}

async function newStream(): Promise<{ id: string; stream_key: string }> {
  const res = await app.call('POST', '/v1/streams', { key: account.key, body: {} });
  assert.is(res.status, 201, res.text);
  return res.body;
}

interface OutputRow {
  status: string;
  last_error: string | null;
  connected_at: Date | null;
  bytes_sent: string;
}
const outputRow = async (id: string): Promise<OutputRow> =>
  (
    await app.db.sql<
      OutputRow[]
    >`select status, last_error, connected_at, bytes_sent from stream_outputs where id = ${id}`
  )[0] as OutputRow;
const statusIs = (id: string, status: string, timeoutMs = 20_000) =>
  waitFor(
    `output ${status}`,
    async () => {
      const row = await outputRow(id);
      return row.status === status && row;
    },
    timeoutMs,
  );
const eventsOf = async (outputId: string) =>
  (
    await app.db.sql<{ type: string; payload: { data: Record<string, unknown> } }[]>`
      select type, payload from events where payload->'data'->>'id' = ${outputId} order by seq`
  ).map((e) => ({ type: e.type, data: e.payload.data }));

async function probe(
  file: string,
): Promise<{ codec_type: string; codec_name: string; width?: number; height?: number }[]> {
  const { stdout } = await execa('ffprobe', ['-v', 'error', '-print_format', 'json', '-show_streams', file]);
  return (
    JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; width?: number; height?: number }[] }
  ).streams;
}

const asSource = (streams: Awaited<ReturnType<typeof probe>>, what: string) => {
  const video = streams.find((s) => s.codec_type === 'video');
  assert.is(video?.codec_name, 'h264', `${what}: video`);
  assert.is(video?.width, 320, `${what}: width`);
  assert.is(video?.height, 240, `${what}: height`);
  assert.is(streams.find((s) => s.codec_type === 'audio')?.codec_name, 'aac', `${what}: audio`);
};

test('RTMP, RTMPS and SRT outputs receive the source as sent; status, bytes, events; the end stops them', async () => {
  const rtmp = await receiver();
  const rtmps = await receiver({ tls: true });
  const srt = await startSrtListener();
  const stream = await newStream();
  const base = { streamId: stream.id, accountId: account.id };
  const ids = {
    rtmp: await insertOutput(app.db.sql, { ...base, url: rtmp.url, key: 'plain-key-1', name: 'plain' }),
    rtmps: await insertOutput(app.db.sql, { ...base, url: rtmps.rtmpsUrl as string, key: 'tls-key-2', name: 'tls' }),
    srt: await insertOutput(app.db.sql, { ...base, url: srt.url, key: 'srt-key-3', name: 'srt' }),
  };
  const publisher = publishTo(stream.stream_key);
  for (const id of Object.values(ids)) {
    const row = await statusIs(id, 'active');
    assert.ok(row.connected_at, 'connected_at set');
    assert.is(row.last_error, null);
  }
  // Bytes grow while pushing (written every few seconds).
  const before = Number((await outputRow(ids.rtmp)).bytes_sent);
  await waitFor(
    'bytes_sent grows',
    async () => Number((await outputRow(ids.rtmp)).bytes_sent) > before + 50_000,
    20_000,
  );
  await waitFor(
    'both RTMP receivers record',
    async () => rtmp.recordings('plain-key-1').length > 0 && rtmps.recordings('tls-key-2').length > 0,
  );
  assert.ok(await rtmp.publishing('plain-key-1'));
  assert.ok(await rtmps.publishing('tls-key-2'));
  await sleep(3000);
  const sent = publisher.sentSeconds();
  const ended = await app.call('DELETE', `/v1/streams/${stream.id}`, { key: account.key });
  assert.is(ended.status, 200, ended.text);
  for (const id of Object.values(ids)) await statusIs(id, 'idle', 10_000);
  await waitFor(
    'the receivers see the publisher leave',
    async () => !(await rtmp.publishing('plain-key-1')) && !(await rtmps.publishing('tls-key-2')),
  );
  await srt.stop();
  asSource(await probe(rtmp.recordings('plain-key-1')[0] as string), 'rtmp');
  asSource(await probe(rtmps.recordings('tls-key-2')[0] as string), 'rtmps');
  asSource(await probe(srt.file), 'srt');
  // The first session's recording at the receiver holds (about) all the publisher sent: from its first frame.
  const { stdout } = await execa('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    rtmp.recordings('plain-key-1')[0] as string,
  ]);
  assert.ok(Number(stdout) >= sent - 1.5, `the receiver got ${stdout} s of the ${sent.toFixed(1)} s sent`);
  for (const id of Object.values(ids)) {
    const events = await eventsOf(id);
    assert.equal(
      events.map((e) => e.type),
      ['output.connected', 'output.disconnected'],
      `events of ${id}`,
    );
    const data = events[0]?.data as Record<string, unknown>;
    assert.is(data.object, 'stream_output');
    assert.is(data.stream_key, '••••');
    assert.is(data.stream_id, stream.id);
    assert.is(data.status, 'active');
    assert.not.ok(JSON.stringify(data).includes('-key-'), 'no key in the event');
  }
  assert.ok(Number((await outputRow(ids.srt)).bytes_sent) > 0);
  // Pushed bytes are delivery: nobody watched, so the stream's delivery is the three outputs' bytes, in its cost too.
  let pushed = 0;
  for (const id of Object.values(ids)) pushed += Number((await outputRow(id)).bytes_sent);
  assert.is(await deliveredBytes(app.db.sql, stream.id), pushed);
  const read = await app.call('GET', `/v1/streams/${stream.id}`, { key: account.key });
  assert.is(read.body.cost.delivery_bytes, pushed);
  // Delivered to the webhook endpoint, signed, with the output's fields and no key.
  const delivered = await waitFor('the events delivered', async () => {
    const mine = hooks.requests
      .map((r) => ({ r, body: JSON.parse(r.body) as { type: string; data: { id: string; url: string } } }))
      .filter(({ body }) => Object.values(ids).includes(body.data.id));
    return mine.length >= 6 && mine;
  });
  assert.equal(delivered.map(({ body }) => body.type).sort(), [
    ...Array(3).fill('output.connected'),
    ...Array(3).fill('output.disconnected'),
  ]);
  for (const { r, body } of delivered) {
    assert.ok(Object.values(r.verified).every(Boolean), 'signed');
    assert.ok([rtmp.url, rtmps.rtmpsUrl, srt.url].includes(body.data.url));
    assert.not.ok(r.body.includes('-key-'));
  }
  await recordingMatches(app, account.key, stream.id, sent);
});

test('a receiver killed and restarted: errored once, active again; the stream stays live; disabling stops it', async () => {
  const target = await receiver();
  const stream = await newStream();
  const id = await outputTo(stream.id, target.url, 'k-restart');
  publishTo(stream.stream_key);
  await statusIs(id, 'active');
  await target.kill();
  const errored = await statusIs(id, 'errored');
  assert.ok(errored.last_error, 'a reason');
  assert.not.ok(errored.last_error?.includes('k-restart'), `no key in ${errored.last_error}`);
  // Retries fail for a while: still one errored event.
  await sleep(4000);
  await target.start();
  await statusIs(id, 'active', 40_000);
  assert.is((await streamOf(app, account.key, stream.id)).status, 'live');
  assert.equal(
    (await eventsOf(id)).map((e) => e.type),
    ['output.connected', 'output.errored', 'output.connected'],
  );
  // Disabled while live: the push stops within seconds, the receiver sees the publisher leave.
  await app.db.sql`update stream_outputs set enabled = false where id = ${id}`;
  await statusIs(id, 'idle', 10_000);
  await waitFor('the receiver sees the publisher leave', async () => !(await target.publishing('k-restart')), 10_000);
  assert.is((await eventsOf(id)).at(-1)?.type, 'output.disconnected');
  assert.is((await streamOf(app, account.key, stream.id)).status, 'live');
  await app.call('DELETE', `/v1/streams/${stream.id}`, { key: account.key });
});

test('an output added while live starts within seconds; a refused key is retried with backoff, not in a loop', async () => {
  const good = await receiver();
  const refusing = await receiver({ refuseKeys: true });
  const stream = await newStream();
  const publisher = publishTo(stream.stream_key);
  await waitFor('live', async () => (await streamOf(app, account.key, stream.id)).status === 'live');
  await sleep(2000);
  const added = await outputTo(stream.id, good.url, 'k-late');
  await statusIs(added, 'active', 15_000);
  const refused = await outputTo(stream.id, refusing.url, 'k-refused');
  const row = await statusIs(refused, 'errored', 15_000);
  const from = refusing.hookCalls;
  await sleep(20_000);
  const attempts = refusing.hookCalls - from;
  console.log(`refused key: ${attempts} attempts in 20 s; last_error: ${row.last_error}`);
  assert.ok(attempts >= 2 && attempts <= 6, `${attempts} attempts in 20 s (backoff 1, 2, 4, 8, 16 s)`);
  assert.equal(
    (await eventsOf(refused)).map((e) => e.type),
    ['output.errored'],
  );
  // The other output and the stream are untouched.
  assert.is((await outputRow(added)).status, 'active');
  assert.is((await streamOf(app, account.key, stream.id)).status, 'live');
  assert.ok(publisher.sentSeconds() > 20);
  await app.call('DELETE', `/v1/streams/${stream.id}`, { key: account.key });
  await statusIs(refused, 'idle', 10_000);
});

test('a publisher reconnecting within the window and an appliance restart: every output continues', async () => {
  const target = await receiver();
  const stream = await newStream();
  const id = await outputTo(stream.id, target.url, 'k-again');
  const first = publishTo(stream.stream_key);
  await statusIs(id, 'active');
  await sleep(2000);
  await first.kill();
  await waitFor('the receiver sees the publisher leave', async () => !(await target.publishing('k-again')), 10_000);
  const second = publishTo(stream.stream_key);
  await waitFor('pushing again', async () => target.publishing('k-again'), 20_000);
  await statusIs(id, 'active');
  // The appliance stops and starts (svc down, svc up; nginx with it, so the publisher comes back):
  // the stream is still live within its window, the push resumes.
  const sessions = target.recordings('k-again').length;
  await app.restart();
  await second.exited;
  publishTo(stream.stream_key);
  await waitFor(
    'a new session at the receiver',
    async () => target.recordings('k-again').length > sessions && target.publishing('k-again'),
    40_000,
  );
  await statusIs(id, 'active');
  assert.equal(
    (await eventsOf(id)).map((e) => e.type),
    ['output.connected'],
    'one connected: a reconnect of the publisher or a restart is no new connection',
  );
  await app.call('DELETE', `/v1/streams/${stream.id}`, { key: account.key });
});

test('RTMPS: a target whose certificate does not chain to a trusted CA gets nothing (errored, the reason named)', async () => {
  const impostor = await receiver({ tls: true, untrusted: true });
  const stream = await newStream();
  const id = await outputTo(stream.id, impostor.rtmpsUrl as string, 'never-sent');
  const publisher = publishTo(stream.stream_key);
  const row = await statusIs(id, 'errored', 30_000);
  assert.match(String(row.last_error), /certificate/i);
  assert.not.ok(await impostor.publishing('never-sent'), 'nothing reached the impostor');
  assert.is(impostor.recordings('never-sent').length, 0);
  await publisher.kill();
  await app.call('DELETE', `/v1/streams/${stream.id}`, { key: account.key });
});

test('SSRF at connect time: a loopback target is refused before any process starts, errored with the reason', async () => {
  const stream = await newStream();
  const id = await outputTo(stream.id, 'rtmp://127.0.0.1:1935/app', 'k-ssrf');
  const [row] = await app.db.sql<PushRow[]>`select * from stream_outputs where id = ${id}`;
  const supervisor = new Supervisor();
  // The pusher as a node without allow_private_outputs builds it (this file's appliance allows them).
  const push = new OutputPush(
    row as PushRow,
    {
      sql: app.db.sql,
      clock: systemClock,
      logger: createLogger('silent'),
      supervisor,
      ffmpegPath: 'ffmpeg',
      policy: { allowPrivate: false, lookup: systemLookup },
      caFile: trusted,
    },
    () => ({ input: { kind: 'live', url: 'rtmp://127.0.0.1:1935/live/none' } }),
  );
  push.start();
  const errored = await statusIs(id, 'errored', 5000);
  assert.is(errored.last_error, 'refused: host 127.0.0.1 is not a public address (loopback)');
  assert.is(push.attempts, 0, 'no ffmpeg started');
  assert.equal(
    (await eventsOf(id)).map((e) => e.type),
    ['output.errored'],
  );
  await push.stop();
  await push.flush();
  await supervisor.stopAll();
  assert.is((await outputRow(id)).status, 'idle');
});

test('a slow receiver: its push falls behind with bounded memory; the publisher, the ladder, the recording and the other output do not', async () => {
  const fast = await receiver();
  const slowTarget = await receiver();
  // Well under the source's rate (the clip is about 50 kB/s with its audio).
  const throttle = await startThrottle(slowTarget.port, 8_000);
  const stream = await newStream();
  const base = { streamId: stream.id, accountId: account.id };
  const fastId = await insertOutput(app.db.sql, { ...base, url: fast.url, key: 'k-fast' });
  await insertOutput(app.db.sql, { ...base, url: `rtmp://127.0.0.1:${throttle.port}/in`, key: 'k-slow' });
  const publisher = publishTo(stream.stream_key);
  await statusIs(fastId, 'active');
  const started = performance.now();
  await sleep(25_000);
  const elapsed = (performance.now() - started) / 1000;
  const slowPush = findProcesses((argv) => argv.some((a) => a.includes(`:${throttle.port}/in/`)));
  const rssKb = slowPush.map((pid) =>
    Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0),
  );
  console.log(
    `slow receiver: push pids ${slowPush.join(',')}, RSS ${rssKb.join(',')} kB after ${elapsed.toFixed(0)} s`,
  );
  for (const kb of rssKb) assert.ok(kb < 150_000, `the slow push holds ${kb} kB`);
  assert.is((await streamOf(app, account.key, stream.id)).status, 'live');
  assert.is((await outputRow(fastId)).status, 'active');
  const sent = publisher.sentSeconds();
  const ended = await app.call('DELETE', `/v1/streams/${stream.id}`, { key: account.key });
  assert.is(ended.status, 200);
  await waitFor('the fast receiver sees the publisher leave', async () => !(await fast.publishing('k-fast')), 10_000);
  // The fast target got the whole broadcast at its pace: nothing held it back.
  const { stdout } = await execa('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    fast.recordings('k-fast')[0] as string,
  ]);
  assert.ok(Number(stdout) >= sent - 1.5, `the fast receiver got ${stdout} s of ${sent.toFixed(1)} s`);
  // The slow one did fall behind (the throttle works): it holds much less.
  const slowFile = slowTarget.recordings('k-slow')[0];
  const slowSeconds = slowFile
    ? Number(
        (await execa('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', slowFile]))
          .stdout,
      ) || 0
    : 0;
  console.log(`slow receiver got ${slowSeconds} s of ${sent.toFixed(1)} s`);
  assert.ok(slowSeconds < sent - 5, `the slow receiver got ${slowSeconds} s`);
  await recordingMatches(app, account.key, stream.id, sent);
  await throttle.close();
});

test.run();
