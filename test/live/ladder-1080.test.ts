import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { signatureSegment, cdnSecret } from '../../src/domains/ledger/cdn/addresses.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { deleteDropsPublisher, killAndReconnect, recordingMatches } from '../helpers/broadcast.js';

/** The one 1080p case: source, 720p and 480p, keyframe-aligned, behind signatures nginx checks. */
let app: TestAppliance;
let key: string;
let publisher: Publisher | undefined;

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount({ trusted: true }));
});
test.after(async () => {
  await publisher?.kill();
  await app.close();
});

test('1080p end to end: ladder of three behind signatures nginx checks, reconnect, DELETE, the MP4', async () => {
  const clip = await makeClip({ width: 1920, height: 1080, seconds: 20, gopSeconds: 2, videoKbps: 4000 });
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 1080 } })).body;
  publisher = publish(app.rtmpUrl(created.stream_key), clip, { loop: true });
  const live = await waitFor('live', async () => {
    const s = (await app.call('GET', `/v1/streams/${created.id}`, { key })).body;
    return s.status === 'live' && s.renditions?.length === 3 && s;
  });
  assert.equal(live.renditions, ['source', '720p', '480p']);

  const master = await waitFor(
    'a playable master',
    async () => {
      const res = await fetch(live.playback_url);
      return res.status === 200 && (await res.text());
    },
    30_000,
  );
  const variants = [...master.matchAll(/#EXT-X-STREAM-INF:(.*)\n(.*)/g)].map((m) => ({
    attrs: m[1] as string,
    uri: m[2] as string,
  }));
  assert.equal(
    variants.map((v) => v.uri),
    ['source.m3u8', '720p.m3u8', '480p.m3u8'],
  );
  const sizes = { 'source.m3u8': '1920x1080', '720p.m3u8': '1280x720', '480p.m3u8': '854x480' } as Record<
    string,
    string
  >;
  for (const v of variants) {
    assert.match(v.attrs, new RegExp(`RESOLUTION=${sizes[v.uri]}`));
    assert.match(v.attrs, /CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
    assert.match(v.attrs, /BANDWIDTH=\d{6,}/);
  }

  // A segment of every rendition, fetched through the same signature, decodes at its size.
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  for (const v of variants) {
    const media = await (await fetch(`${base}${v.uri}`)).text();
    const segment = /^(\S+\.ts)$/m.exec(media)?.[1];
    assert.ok(segment, media);
    const probe = await execa('ffprobe', [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=width,height',
      '-of',
      'csv=p=0',
      `${base}${segment}`,
    ]);
    assert.is(probe.stdout.trim().split('\n')[0]?.replace(',', 'x'), sizes[v.uri]);
  }

  // nginx checks every request: tampered, expired, another stream's, or no signature → 403.
  const url = new URL(live.playback_url);
  const [, sig] = url.pathname.split('/');
  const tampered = live.playback_url.replace(
    sig as string,
    `${(sig as string)[0] === 'A' ? 'B' : 'A'}${(sig as string).slice(1)}`,
  );
  const expired = `${app.config.publicUrls.cdn_url}/${signatureSegment(cdnSecret(app.secrets.signing_key), 'hls', created.id, new Date(Date.now() - 1000))}/${created.id}/master.m3u8`;
  const longer = live.playback_url.replace(/\.(\d{10})\//, (_m: string, e: string) => `.${Number(e) + 1}/`);
  const other = live.playback_url.replace(created.id, 'str_aaaaaaaaaaaaaaaaaaaa');
  const unsigned = `${app.config.publicUrls.cdn_url}/${created.id}/master.m3u8`;
  for (const [what, u] of Object.entries({ tampered, expired, longer, other, unsigned })) {
    assert.is((await fetch(u)).status, 403, `${what} URL refused`);
  }
  const token = await app.call('POST', `/v1/streams/${created.id}/playback-token`, { key, body: { expires_in: 120 } });
  assert.is(token.status, 200, token.text);
  assert.is((await fetch(token.body.playback_url)).status, 200, 'a fresh token plays');

  // Killed and back within the window, then DELETE: one MP4 of the top quality, as long as what was sent.
  const { again, sentFirst } = await killAndReconnect(
    app,
    key,
    created.id,
    publisher,
    8,
    () => (publisher = publish(app.rtmpUrl(created.stream_key), clip, { loop: true })),
  );
  await waitFor('4 s sent again', async () => again.sentSeconds() >= 4);
  const sentSecond = await deleteDropsPublisher(app, key, created.id, again);
  await recordingMatches(app, key, created.id, sentFirst + sentSecond);
  const mp4 = await execa('ffprobe', [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=width,height',
    '-of',
    'csv=p=0',
    (await app.call('POST', `/v1/streams/${created.id}/recording/download`, { key })).body.url,
  ]);
  assert.is(mp4.stdout.trim(), '1920,1080', 'the recording is the top quality');
});

test.run();
