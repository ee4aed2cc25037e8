import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { judgeSource } from '../../src/domains/engine/live/source-rules.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, runPublisher, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * The spec's publisher limits require H.264 video. nginx-rtmp asks `on_publish` before any
 * media arrives, so the stream goes live; once the metadata shows another codec, or audio
 * without video, the publisher is dropped and the reconnect window (5 s here) runs.
 */
let app: TestAppliance;
const publishers: Publisher[] = [];

test.before(async () => {
  app = await startTestAppliance({ live: { reconnect_window_seconds: 5 } });
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
});

const meta = (over: object) => ({
  width: null,
  height: null,
  frameRate: null,
  videoCodec: null,
  profile: null,
  level: null,
  audioCodec: null,
  ...over,
});

test('judgeSource: H.264 video accepted; other video refused at once; audio alone refused once the metadata settled', () => {
  assert.equal(judgeSource(meta({ width: 1280, height: 720, videoCodec: 'H264', audioCodec: 'AAC' }), false), {
    kind: 'accepted',
    width: 1280,
    height: 720,
    hasAudio: true,
  });
  // Some encoders name no codec in their metadata: the size is enough to start.
  assert.equal(judgeSource(meta({ width: 640, height: 360 }), false), {
    kind: 'accepted',
    width: 640,
    height: 360,
    hasAudio: false,
  });
  assert.equal(judgeSource(meta({ width: 320, height: 180, videoCodec: 'Sorenson-H263' }), false), {
    kind: 'refused',
    video: 'Sorenson-H263',
    reason: 'it sends Sorenson-H263 video; H.264 is required',
  });
  // nginx-rtmp prints width 0 for a publisher without video.
  assert.equal(judgeSource(meta({ width: 0, height: 0, audioCodec: 'AAC' }), false), { kind: 'unknown' });
  assert.equal(judgeSource(meta({ width: 0, height: 0, audioCodec: 'AAC' }), true), {
    kind: 'refused',
    video: null,
    reason: 'it sends audio without video; H.264 video is required',
  });
  assert.equal(judgeSource(null, true), { kind: 'unknown' });
});

const logLines = () =>
  readFileSync(join(app.dataDir, 'logs', 'svc.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const sessions = (id: string) =>
  readdirSync(join(app.dataDir, 'media', 'ingest')).filter((f) => f.startsWith(`${id}-`));
const exitsWithin = (p: Publisher, ms: number) =>
  Promise.race([p.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

test('a Sorenson H.263 publisher is dropped within seconds, no ladder starts; an H.264 reconnect with the same key continues the stream', async () => {
  const { key } = await app.newAccount();
  const s = (await app.call('POST', '/v1/streams', { key })).body;
  const wrong = runPublisher([
    '-re',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x180:rate=30',
    '-t',
    '30',
    '-c:v',
    'flv1',
    '-f',
    'flv',
    app.rtmpUrl(s.stream_key),
  ]);
  publishers.push(wrong);
  assert.ok(await exitsWithin(wrong, 5000), 'the publisher was dropped');
  const refused = logLines().find((l) => l.stream_id === s.id && String(l.msg).startsWith('publisher dropped'));
  assert.ok(refused, 'the log says why');
  assert.is(refused.video_codec, 'Sorenson-H263');
  assert.match(String(refused.msg), /it sends Sorenson-H263 video; H\.264 is required/);
  assert.not.ok(
    logLines().some((l) => l.stream_id === s.id && l.msg === 'ladder started'),
    'no ladder for it',
  );
  await waitFor('its recorded session removed', async () => sessions(s.id).length === 0, 5000);
  assert.is((await app.call('GET', `/v1/streams/${s.id}`, { key })).body.status, 'live', 'within the reconnect window');

  const clip = await makeClip({ width: 320, height: 180, seconds: 4, gopSeconds: 1 });
  const right = publish(app.rtmpUrl(s.stream_key), clip, { loop: true });
  publishers.push(right);
  await waitFor('the master playlist', async () => (await fetch(s.playback_url)).status === 200, 20_000);
  await right.kill();
});

test('an audio-only publisher is dropped; without an H.264 reconnect the stream ends `disconnected` after the window', async () => {
  const { key } = await app.newAccount();
  const s = (await app.call('POST', '/v1/streams', { key })).body;
  const audio = runPublisher([
    '-re',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    '30',
    '-c:a',
    'aac',
    '-f',
    'flv',
    app.rtmpUrl(s.stream_key),
  ]);
  publishers.push(audio);
  assert.ok(await exitsWithin(audio, 10_000), 'the publisher was dropped');
  const refused = logLines().find((l) => l.stream_id === s.id && String(l.msg).startsWith('publisher dropped'));
  assert.match(String(refused?.msg), /it sends audio without video; H\.264 video is required/);
  const ended = await waitFor(
    'ended',
    async () => {
      const now = (await app.call('GET', `/v1/streams/${s.id}`, { key })).body;
      return now.status === 'ended' && now;
    },
    15_000,
  );
  assert.is(ended.end_reason, 'disconnected');
  assert.is((await fetch(s.playback_url)).status, 404, 'never playable');
});

test.run();
