import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';

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

const getStream = async (id: string) => {
  const res = await app.call('GET', `/v1/streams/${id}`, { key });
  assert.is(res.status, 200, res.text);
  return res.body;
};

const events = (id: string, type: string) => app.db.sql<{ id: string }[]>`select id from events where stream_id = ${id} and type = ${type}`;

test('a whole broadcast: refused key, live, signed HLS, duplicate refused, reconnect, DELETE, recording', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  assert.ok(created.node_ready, 'ingest is up');
  assert.match(created.playback_url, new RegExp(`^${app.config.publicUrls.cdn_url}/[A-Za-z0-9_-]{22}\\.[0-9]{10}/${created.id}/master\\.m3u8$`));

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

  // Signed HLS: the master lists the source with CODECS, and a piece decodes.
  const master = await waitFor('a playable master', async () => {
    const res = await fetch(live.playback_url);
    return res.status === 200 && (await res.text());
  });
  assert.match(master, /#EXT-X-STREAM-INF:.*BANDWIDTH=\d+.*RESOLUTION=426x240.*CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  assert.match(master, /source\.m3u8/);
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  const media = await (await fetch(`${base}source.m3u8`)).text();
  const piece = /^(source_\d{5}\.ts)$/m.exec(media)?.[1];
  assert.ok(piece, media);
  const probe = await execa('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,width,height', '-of', 'json', `${base}${piece}`]);
  assert.match(probe.stdout, /"width": 426/);

  // A second publisher with the same key is refused while the first is live.
  const second = start(app.rtmpUrl(created.stream_key));
  assert.is.not(await second.exited, 0, 'the second publisher is refused');
  assert.is(first.proc.exitCode, null, 'the first publisher keeps publishing');

  // The publisher drops and comes back within the window: one broadcast, one stream.live.
  await waitFor('6 s sent', async () => first.sentSeconds() >= 6);
  await first.kill();
  const sentFirst = first.sentSeconds();
  await waitFor('publisher recorded as gone', async () => (await app.db.sql`select 1 from streams where id = ${created.id} and publisher_client_id is null`).length > 0);
  const again = start(app.rtmpUrl(created.stream_key));
  await waitFor('publisher back', async () => (await app.db.sql`select 1 from streams where id = ${created.id} and publisher_client_id is not null`).length > 0);
  assert.is((await getStream(created.id)).status, 'live');
  assert.is((await events(created.id, 'stream.live')).length, 1, 'no second stream.live');

  // Numbering continues across the reconnect, with a discontinuity.
  const lastBefore = Number(/source_(\d{5})\.ts\s*$/.exec(media.trim())?.[1]);
  const after = await waitFor('pieces of the second session', async () => {
    const text = await (await fetch(`${base}source.m3u8`)).text();
    return text.includes('#EXT-X-DISCONTINUITY') && text;
  }, 30_000);
  const numbers = [...after.matchAll(/source_(\d{5})\.ts/g)].map((m) => Number(m[1]));
  assert.ok(numbers.every((n, i) => i === 0 || n === (numbers[i - 1] as number) + 1), `consecutive: ${numbers.join(',')}`);
  assert.ok((numbers[numbers.length - 1] as number) > lastBefore);

  await waitFor('4 s sent again', async () => again.sentSeconds() >= 4);
  const ended = await app.call('DELETE', `/v1/streams/${created.id}`, { key });
  const sentSecond = again.sentSeconds();
  assert.is(ended.status, 200);
  assert.is(ended.body.status, 'ended');
  assert.is(ended.body.end_reason, 'deleted');
  assert.is(ended.body.playback_url, null);
  const dropped = await Promise.race([again.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]);
  assert.ok(dropped, 'the publisher is dropped within seconds');

  const ready = await waitFor('recording ready', async () => {
    const s = await getStream(created.id);
    return s.recording.status === 'ready' && s;
  }, 30_000);
  const sent = sentFirst + sentSecond;
  assert.ok(Math.abs(ready.recording.duration_seconds - sent) <= 1, `recording ${ready.recording.duration_seconds} s, sent ${sent.toFixed(2)} s`);
  assert.ok(ready.recording.bytes > 0);
  assert.ok(ready.recording.ready_at);
  assert.is((await events(created.id, 'recording.ready')).length, 1);

  const download = await app.call('POST', `/v1/streams/${created.id}/recording/download`, { key });
  assert.is(download.status, 200, download.text);
  const range = await fetch(download.body.url, { headers: { range: 'bytes=0-99' } });
  assert.is(range.status, 206);
  assert.is((await range.arrayBuffer()).byteLength, 100);
  assert.is(range.headers.get('content-range'), `bytes 0-99/${ready.recording.bytes}`);
});

test.run();
