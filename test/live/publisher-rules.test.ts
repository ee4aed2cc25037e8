import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';

/**
 * Publisher rules with the real parts and shortened windows (reconnect 15 s, limit grace 4 s,
 * bitrate averaged over 4 s, a 1500 kbps cap so that a small source can break it).
 */
let app: TestAppliance;
let small: string;
let heavy: string;
const publishers: Publisher[] = [];

test.before(async () => {
  // Trusted accounts here have 12-second streams (the maximum-duration test).
  app = await startTestAppliance({
    live: { max_ingest_kbps: 1500 },
    limits: { trusted: { max_duration_seconds: 12 } },
  });
  small = await makeClip({ width: 320, height: 180, seconds: 10, gopSeconds: 1 });
  heavy = await makeClip({ width: 640, height: 360, seconds: 10, gopSeconds: 1, videoKbps: 3000 });
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
});

const start = (url: string, clip = small) => {
  const p = publish(url, clip, { loop: true });
  publishers.push(p);
  return p;
};
const getStream = async (key: string, id: string) => (await app.call('GET', `/v1/streams/${id}`, { key })).body;
const create = async (key: string, body: unknown = {}) => {
  const res = await app.call('POST', '/v1/streams', { key, body });
  assert.is(res.status, 201, res.text);
  return res.body;
};

test('passthrough serves exactly the source', async () => {
  const { key } = await app.newAccount({ trusted: true });
  const s = await create(key, { profile: 'passthrough', max_resolution: 1080 });
  assert.equal(s.renditions, ['source']);
  const p = start(app.rtmpUrl(s.stream_key));
  const master = await waitFor('master', async () => {
    const res = await fetch(s.playback_url);
    return res.status === 200 && (await res.text());
  });
  assert.is([...master.matchAll(/#EXT-X-STREAM-INF/g)].length, 1);
  assert.match(master, /RESOLUTION=320x180/);
  assert.equal((await getStream(key, s.id)).renditions, ['source']);
  // Its stills come every 60 s, but the first one with the first segment.
  const still = await waitFor('a still', async () => (await getStream(key, s.id)).thumbnail, 10_000);
  assert.is(still.url, `${app.config.publicUrls.cdn_url}/_thumb/${s.id}.jpg`);
  await p.kill();
});

test('the maximum duration ends the stream `duration_limit` and drops the publisher', async () => {
  const { key } = await app.newAccount({ trusted: true });
  const s = await create(key, { record: false });
  assert.is(s.max_duration_seconds, 12);
  const p = start(app.rtmpUrl(s.stream_key));
  const live = await waitFor('live', async () => {
    const now = await getStream(key, s.id);
    return now.status === 'live' && now;
  });
  const ended = await waitFor(
    'ended',
    async () => {
      const now = await getStream(key, s.id);
      return now.status === 'ended' && now;
    },
    30_000,
  );
  assert.is(ended.end_reason, 'duration_limit');
  const lived = (new Date(ended.ended_at).getTime() - new Date(live.went_live_at).getTime()) / 1000;
  assert.ok(lived >= 12 && lived < 16, `ended after ${lived} s`);
  const dropped = await Promise.race([p.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
  assert.ok(dropped, 'publisher dropped');
});

test('a frozen publisher (half-open connection) is cleared: the same key is refused, then admitted', async () => {
  const { key } = await app.newAccount();
  const s = await create(key, { record: false });
  const frozen = start(app.rtmpUrl(s.stream_key));
  await waitFor('live', async () => (await getStream(key, s.id)).status === 'live');
  frozen.proc.kill('SIGSTOP');
  // Right away the connection still looks alive: a second publisher is refused.
  const early = start(app.rtmpUrl(s.stream_key));
  assert.is.not(await early.exited, 0, 'refused while the old connection is open');
  // nginx drops the idle publisher (3 s here, 10 s by default); a later try is admitted, same broadcast.
  const admitted = await waitFor(
    'a retry admitted',
    async () => {
      const p = start(app.rtmpUrl(s.stream_key));
      const outcome = await Promise.race([
        p.exited.then(() => 'refused'),
        new Promise((r) => setTimeout(() => r('publishing'), 2500)),
      ]);
      if (outcome === 'publishing') return p;
      return false;
    },
    30_000,
    500,
  );
  assert.ok(admitted);
  const now = await getStream(key, s.id);
  assert.is(now.status, 'live');
  const events = await app.db.sql`select 1 from events where stream_id = ${s.id} and type = 'stream.live'`;
  assert.is(events.length, 1);
  frozen.proc.kill('SIGKILL');
  await admitted.kill();
});

test('a new account has one stream live at a time: the second publisher is refused', async () => {
  const { key } = await app.newAccount();
  const [a, b] = [await create(key), await create(key)];
  start(app.rtmpUrl(a.stream_key));
  await waitFor('a live', async () => (await getStream(key, a.id)).status === 'live');
  const refused = start(app.rtmpUrl(b.stream_key));
  assert.is.not(await refused.exited, 0);
  assert.is((await getStream(key, b.id)).status, 'pending');
  await app.call('DELETE', `/v1/streams/${a.id}`, { key });
});

test('a suspended account cannot go live', async () => {
  const { id, key } = await app.newAccount();
  const s = await create(key);
  await app.accounts.suspend(id);
  const refused = start(app.rtmpUrl(s.stream_key));
  assert.is.not(await refused.exited, 0);
  await app.accounts.approve(id);
  assert.is((await getStream(key, s.id)).status, 'pending');
});

test('the publisher gone for the whole reconnect window ends the stream `disconnected`', async () => {
  const { key } = await app.newAccount();
  const s = await create(key, { record: false });
  const p = start(app.rtmpUrl(s.stream_key));
  await waitFor('live', async () => (await getStream(key, s.id)).status === 'live');
  await waitFor('2 s sent', async () => p.sentSeconds() >= 2);
  await p.kill();
  const gone = Date.now();
  const ended = await waitFor(
    'ended',
    async () => {
      const now = await getStream(key, s.id);
      return now.status === 'ended' && now;
    },
    30_000,
  );
  const waited = (Date.now() - gone) / 1000;
  assert.is(ended.end_reason, 'disconnected');
  assert.ok(waited >= 14, `ended after ${waited.toFixed(1)} s, not before the 15 s window`);
  assert.is(ended.recording.status, 'not_recorded');
  // The key worked for one broadcast.
  const late = start(app.rtmpUrl(s.stream_key));
  assert.is.not(await late.exited, 0);
});

test('bitrate above the cap: a warning, then the stream ends with limit_bitrate', async () => {
  const { key } = await app.newAccount();
  const s = await create(key, { record: false });
  start(app.rtmpUrl(s.stream_key), heavy);
  const warned = await waitFor(
    'limit warning',
    async () => {
      const now = await getStream(key, s.id);
      return now.ingest?.limit_warning === 'limit_bitrate' && now;
    },
    20_000,
  );
  assert.ok(warned.ingest.kbps > 1500, `kbps ${warned.ingest.kbps}`);
  assert.is(warned.status, 'live');
  const ended = await waitFor(
    'ended',
    async () => {
      const now = await getStream(key, s.id);
      return now.status === 'ended' && now;
    },
    20_000,
  );
  assert.is(ended.end_reason, 'limit_bitrate');
});

test('a frame larger than declared: limit_resolution after the grace; ingest reports size and keyframes', async () => {
  const { key } = await app.newAccount();
  const s = await create(key, { max_resolution: 480, record: false });
  // 12 s loops keep the 3 s keyframe rhythm across the loop.
  const big = await makeClip({ width: 1280, height: 720, seconds: 12, gopSeconds: 3, videoKbps: 800 });
  start(app.rtmpUrl(s.stream_key), big);
  const warned = await waitFor(
    'limit warning',
    async () => {
      const now = await getStream(key, s.id);
      return now.ingest?.limit_warning === 'limit_resolution' && now;
    },
    20_000,
  );
  assert.is(warned.ingest.width, 1280);
  assert.is(warned.ingest.height, 720);
  const ended = await waitFor(
    'ended',
    async () => {
      const now = await getStream(key, s.id);
      return now.status === 'ended' && now;
    },
    20_000,
  );
  assert.is(ended.end_reason, 'limit_resolution');
  assert.ok(
    Math.abs(ended.ingest.keyframe_interval_seconds - 3) < 0.2,
    `keyframes every ${ended.ingest.keyframe_interval_seconds} s`,
  );
  assert.is(ended.ingest.keyframe_warning, true, 'above 2.5 s');
});

test.run();
