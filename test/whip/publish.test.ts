import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { findProcesses } from '../../src/platform/process/proc.js';
import { waitFor } from '../helpers/publisher.js';
import { whipPublish, type WhipPublisher } from '../helpers/whip-client.js';

/**
 * A WHIP publisher (werift in the test process, as a browser) goes through the same pipeline as
 * RTMP: live, signed HLS of H.264 + AAC, DELETE of the session → the reconnect window → ended,
 * and the recording.
 */
let app: TestAppliance;
let key: string;
const publishers: WhipPublisher[] = [];

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount());
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.vanish()));
  await app.close();
});

test('WHIP publish: live, signed HLS of H.264 + AAC, DELETE, reconnect window, ended, recording', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  assert.match(
    created.whip_url,
    new RegExp(`^${app.config.publicUrls.base_url}/live/${created.id}\\?direction=whip&key=`),
  );

  const pub = await whipPublish(created.whip_url);
  publishers.push(pub);
  assert.is(pub.status, 201, pub.body);
  assert.match(pub.body, /^v=0/);
  assert.ok(
    pub.location?.startsWith(`${app.config.publicUrls.base_url}/live/${created.id}/sessions/`),
    String(pub.location),
  );
  assert.not.match(pub.body, /transport-cc/, 'no transport-wide congestion control: REMB');
  await pub.connected;

  const live = await waitFor('live', async () => {
    const s = await streamOf(app, key, created.id);
    return s.status === 'live' && s;
  });
  assert.ok(live.went_live_at);

  const master = await waitFor(
    'a playable master',
    async () => {
      const res = await fetch(live.playback_url);
      return res.status === 200 && (await res.text());
    },
    30_000,
  );
  assert.match(master, /#EXT-X-STREAM-INF:.*RESOLUTION=320x180.*CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  const media = await (await fetch(`${base}source.m3u8`)).text();
  const segment = /^(source_\d{5}\.ts)$/m.exec(media)?.[1];
  assert.ok(segment, media);
  const probe = JSON.parse(
    (
      await execa('ffprobe', [
        '-v',
        'error',
        '-show_entries',
        'stream=codec_name,width,height,sample_rate',
        '-of',
        'json',
        `${base}${segment}`,
      ])
    ).stdout,
  );
  const codecs = probe.streams.map((s: { codec_name: string }) => s.codec_name).sort();
  assert.equal(codecs, ['aac', 'h264']);
  assert.ok(
    probe.streams.some((s: { sample_rate?: string }) => s.sample_rate === '48000'),
    'AAC at 48 kHz',
  );

  // The relay killed: the supervisor starts it again, it starts on a keyframe, the publisher is back.
  const relayPids = () =>
    findProcesses(
      (argv) => argv.some((a) => a.endsWith('.sdp')) && argv.some((a) => a.startsWith(`${created.id}?relay=`)),
    );
  const [relay] = relayPids();
  assert.ok(relay, 'the relay runs');
  const before = Number(/source_(\d{5})\.ts\s*$/.exec(media.trim())?.[1]);
  process.kill(relay as number, 'SIGKILL');
  await waitFor('the relay back', async () => relayPids().some((p) => p !== relay));
  await waitFor(
    'segments again',
    async () => {
      const text = await (await fetch(`${base}source.m3u8`)).text();
      return (
        text.includes('#EXT-X-DISCONTINUITY') && Number(/source_(\d{5})\.ts\s*$/.exec(text.trim())?.[1]) > before + 1
      );
    },
    30_000,
  );
  assert.is((await streamOf(app, key, created.id)).status, 'live');
  assert.is(
    (await app.db.sql`select 1 from events where stream_id = ${created.id} and type = 'stream.live'`).length,
    1,
    'one broadcast',
  );

  // Ingest measurements as for RTMP, but no keyframe interval: the appliance asks for keyframes itself.
  const measured = await waitFor('an ingest measurement', async () => {
    const s = await streamOf(app, key, created.id);
    return s.ingest?.kbps > 0 && s.ingest.width === 320 && s.ingest;
  });
  assert.is(measured.keyframe_interval_seconds, null);
  assert.is(measured.keyframe_warning, false);

  // DELETE of the session: the publisher leaves, the stream waits out its reconnect window.
  await waitFor('4 s sent', async () => pub.sentSeconds() >= 4);
  const sent = pub.sentSeconds();
  assert.is(await pub.stop(), 200);
  await waitFor(
    'publisher gone',
    async () =>
      (await app.db.sql`select 1 from streams where id = ${created.id} and publisher_left_at is not null`).length > 0,
  );
  assert.is((await streamOf(app, key, created.id)).status, 'live', 'still live within the reconnect window');
  const ended = await waitFor(
    'ended after the window',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.status === 'ended' && s;
    },
    40_000,
  );
  assert.is(ended.end_reason, 'disconnected');

  const ready = await waitFor(
    'recording ready',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.recording.status === 'ready' && s;
    },
    60_000,
  );
  // The relay starts on the first keyframe after the connection, and lost a moment to its restart.
  const duration = ready.recording.duration_seconds;
  assert.ok(duration > sent - 6 && duration <= sent + 1, `recording ${duration} s, sent about ${sent.toFixed(1)} s`);
});

test.run();
