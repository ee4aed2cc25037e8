import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { deleteDropsPublisher, killAndReconnect, streamOf } from '../helpers/broadcast.js';
import { makeClip, runPublisher, waitFor, type Publisher } from '../helpers/publisher.js';
import { findProcesses } from '../../src/platform/process/proc.js';

/**
 * An SRT publisher (ffmpeg sending MPEG-TS, as OBS does) goes through the RTMP path: live, HLS
 * through the CDN, the publisher's own keyframe interval measured, a reconnect within the window
 * is the same broadcast, the recording. A wrong passphrase is refused at the handshake.
 */
let app: TestAppliance;
let key: string;
let clip: string;
const publishers: Publisher[] = [];

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount());
  clip = await makeClip({ width: 640, height: 360, seconds: 10, gopSeconds: 2 });
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
});

/** ffmpeg publishing the clip in real time over SRT (MPEG-TS), looped. */
function srtPublish(url: string): Publisher {
  const publisher = runPublisher(['-re', '-stream_loop', '-1', '-i', clip, '-c', 'copy', '-f', 'mpegts', url]);
  publishers.push(publisher);
  return publisher;
}

const withPassphrase = (url: string, passphrase: string) => url.replace(/passphrase=[^&]+/, `passphrase=${passphrase}`);

test('SRT publish: wrong passphrase refused; live, HLS, reconnect, ended, recording', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  const port = app.config.srt.port_min;
  assert.match(
    created.srt_url,
    new RegExp(`^srt://${app.config.publicUrls.srt_host}:${port}\\?passphrase=[A-Za-z0-9_-]{32}&latency=1000000$`),
  );
  const passphrase = new URL(created.srt_url).searchParams.get('passphrase') as string;
  // The listener's passphrase is in a 0600 file, not in any command line.
  const listener = await waitFor('the listener', async () => {
    const pids = findProcesses((argv) => argv.some((a) => a.includes(`${created.id}?relay=`)));
    return pids.length > 0 && pids;
  });
  assert.is(listener.length, 1);
  assert.equal(
    findProcesses((argv) => argv.some((a) => a.includes(passphrase))),
    [],
  );

  // libsrt refuses the handshake: the publisher fails at once, the stream stays pending.
  const wrong = srtPublish(withPassphrase(created.srt_url, 'not-the-passphrase-0123456789'));
  const code = await Promise.race([wrong.exited, new Promise((r) => setTimeout(() => r('still running'), 10_000))]);
  assert.is.not(code, 0, 'refused');
  assert.is.not(code, 'still running');
  assert.is((await streamOf(app, key, created.id)).status, 'pending');

  const started = performance.now();
  const first = srtPublish(created.srt_url);
  const live = await waitFor('live', async () => {
    const s = await streamOf(app, key, created.id);
    return s.status === 'live' && s;
  });
  const toLive = performance.now() - started;
  const master = await waitFor(
    'a playable master',
    async () => {
      const res = await fetch(live.playback_url);
      return res.status === 200 && (await res.text());
    },
    30_000,
  );
  console.log(`SRT: live ${(toLive / 1000).toFixed(1)} s after the publisher started`);
  assert.match(master, /RESOLUTION=640x360.*CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  const media = await (await fetch(`${base}source.m3u8`)).text();
  const segment = /^(source_\d{5}\.ts)$/m.exec(media)?.[1];
  assert.ok(segment, media);
  const bytes = (await (await fetch(`${base}${segment}`)).arrayBuffer()).byteLength;
  assert.ok(bytes > 10_000, `a segment of ${bytes} bytes`);

  // The relay copies the publisher's GOP: its keyframe interval is measured, as for RTMP.
  const measured = await waitFor(
    'an ingest measurement',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.ingest?.kbps > 0 && s.ingest.keyframe_interval_seconds !== null && s.ingest;
    },
    30_000,
  );
  assert.is(measured.width, 640);
  assert.ok(Math.abs(measured.keyframe_interval_seconds - 2) < 0.3, String(measured.keyframe_interval_seconds));
  const row = (await app.db.sql`select ingest_relay from streams where id = ${created.id}`)[0];
  assert.is(row?.ingest_relay, 'srt', 'capacity counts the relay');

  // The publisher drops and comes back within the window: the same broadcast.
  const { again, sentFirst } = await killAndReconnect(app, key, created.id, first, 4, () =>
    srtPublish(created.srt_url),
  );
  await waitFor('4 s sent again', async () => again.sentSeconds() >= 4, 30_000);
  await again.kill('SIGINT');
  const ended = await waitFor(
    'ended after the window',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.status === 'ended' && s;
    },
    40_000,
  );
  assert.is(ended.end_reason, 'disconnected');
  await waitFor('the listener stopped', async () =>
    findProcesses((argv) => argv.some((a) => a.includes(`${created.id}?relay=`))).length === 0 ? true : undefined,
  );
  await recordingMatchesLoosely(created.id, sentFirst + again.sentSeconds());
});

test('a new key gives a new passphrase on the same port; the old one is refused; DELETE drops the publisher', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  const rotated = await app.call('POST', `/v1/streams/${created.id}/stream-key`, { key });
  assert.is(rotated.status, 200, rotated.text);
  assert.is(new URL(rotated.body.srt_url).port, new URL(created.srt_url).port);
  assert.is.not(rotated.body.srt_url, created.srt_url);
  // The listener takes the new passphrase within a second or two.
  await waitFor('the old passphrase refused', async () => {
    const old = srtPublish(created.srt_url);
    const code = await Promise.race([old.exited, new Promise((r) => setTimeout(() => r('running'), 3000))]);
    if (code === 'running') await old.kill();
    return code !== 'running' && code !== 0;
  });
  const publisher = srtPublish(rotated.body.srt_url);
  await waitFor('live', async () => (await streamOf(app, key, created.id)).status === 'live');
  await deleteDropsPublisher(app, key, created.id, publisher);
});

/** SRT's latency and the relay's probe shave a little off each session: ±3 s over two. */
async function recordingMatchesLoosely(id: string, sent: number): Promise<void> {
  const ready = await waitFor(
    'recording ready',
    async () => {
      const s = await streamOf(app, key, id);
      return s.recording.status === 'ready' && s;
    },
    60_000,
  );
  const duration = ready.recording.duration_seconds;
  assert.ok(duration > sent - 4 && duration <= sent + 1, `recording ${duration} s, sent ${sent.toFixed(1)} s`);
}

test.run();
