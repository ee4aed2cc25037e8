import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { deleteDropsPublisher, killAndReconnect, recordingMatches, streamOf } from '../helpers/broadcast.js';

/**
 * One broadcast of a small source through the real parts: wrong key refused, live, signed HLS,
 * a second publisher refused, a reconnect within the window, DELETE drops the publisher, and
 * the recording is as long as what was sent.
 */
let app: TestAppliance;
let key: string;
let clip: string;
const publishers: Publisher[] = [];

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount());
  clip = await makeClip({ width: 426, height: 240, seconds: 12, gopSeconds: 1 });
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
});

const start = (url: string, opts: { loop?: boolean; seconds?: number } = { loop: true }) => {
  const p = publish(url, clip, opts);
  publishers.push(p);
  return p;
};

const getStream = (id: string) => streamOf(app, key, id);

test('a whole broadcast: refused key, live, signed HLS, duplicate refused, reconnect, DELETE, recording', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  assert.ok(created.node_ready, 'ingest is up');
  assert.match(
    created.playback_url,
    new RegExp(`^${app.config.publicUrls.cdn_url}/[A-Za-z0-9_-]{22}\\.[0-9]{10}/${created.id}/master\\.m3u8$`),
  );

  // Wrong key: refused at once, the stream stays pending.
  const wrong = start(app.rtmpUrl(`${created.id}?key=not-the-key`));
  assert.is.not(await wrong.exited, 0, 'a wrong key is refused');
  assert.is((await getStream(created.id)).status, 'pending');

  const first = start(app.rtmpUrl(created.stream_key));
  const live = await waitFor('live', async () => {
    const s = await getStream(created.id);
    return s.status === 'live' && s;
  });
  assert.ok(live.went_live_at);
  assert.equal(live.renditions, ['source'], '240p source: the ladder only copies');

  // Signed HLS: the master lists the source with CODECS, and a segment decodes.
  const master = await waitFor('a playable master', async () => {
    const res = await fetch(live.playback_url);
    return res.status === 200 && (await res.text());
  });
  assert.match(master, /#EXT-X-STREAM-INF:.*BANDWIDTH=\d+.*RESOLUTION=426x240.*CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  assert.match(master, /source\.m3u8/);
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  const media = await (await fetch(`${base}source.m3u8`)).text();
  const segment = /^(source_\d{5}\.ts)$/m.exec(media)?.[1];
  assert.ok(segment, media);
  const probe = await execa('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,width,height',
    '-of',
    'json',
    `${base}${segment}`,
  ]);
  assert.match(probe.stdout, /"width": 426/);

  // A second publisher with the same key is refused while the first is live.
  const second = start(app.rtmpUrl(created.stream_key));
  assert.is.not(await second.exited, 0, 'the second publisher is refused');
  assert.is(first.proc.exitCode, null, 'the first publisher keeps publishing');

  // The publisher drops and comes back within the window: one broadcast.
  const lastBefore = Number(/source_(\d{5})\.ts\s*$/.exec(media.trim())?.[1]);
  const { again, sentFirst } = await killAndReconnect(app, key, created.id, first, 6, () =>
    start(app.rtmpUrl(created.stream_key)),
  );

  // Numbering continues across the reconnect, with a discontinuity.
  const after = await waitFor(
    'segments of the second session',
    async () => {
      const text = await (await fetch(`${base}source.m3u8`)).text();
      return (
        text.includes('#EXT-X-DISCONTINUITY') &&
        Number(/source_(\d{5})\.ts\s*$/.exec(text.trim())?.[1]) > lastBefore + 1 &&
        text
      );
    },
    30_000,
  );
  const numbers = [...after.matchAll(/source_(\d{5})\.ts/g)].map((m) => Number(m[1]));
  assert.ok(
    numbers.every((n, i) => i === 0 || n === (numbers[i - 1] as number) + 1),
    `consecutive: ${numbers.join(',')}`,
  );

  await waitFor('4 s sent again', async () => again.sentSeconds() >= 4);
  const sentSecond = await deleteDropsPublisher(app, key, created.id, again);
  await recordingMatches(app, key, created.id, sentFirst + sentSecond);
});

test.run();
