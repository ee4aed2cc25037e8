import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cdnSecret, signatureSegment } from '../../src/domains/ledger/cdn/addresses.js';
import { stillsDir } from '../../src/domains/engine/recordings/thumbnails.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { ok, svc } from '../helpers/cli.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * The thumbnail endpoints through the real parts (nginx, ffmpeg, PostgreSQL): the current still's
 * signed address, and stills of the recording at chosen seconds, made once and served by nginx.
 */
let app: TestAppliance;
let key: string;
let otherKey: string;
let clip: string;
let publisher: Publisher | undefined;

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount());
  ({ key: otherKey } = await app.newAccount());
  // testsrc2 moves: stills at two seconds differ.
  clip = await makeClip({ width: 320, height: 180, seconds: 8, fps: 15, gopSeconds: 1, audio: false });
});
test.after(async () => {
  await publisher?.kill();
  await app.close();
});

const get = (path: string, as = key) => app.call('GET', path, { key: as });
const jpeg = async (url: string) => {
  const res = await fetch(url);
  assert.is(res.status, 200, url);
  assert.is(res.headers.get('content-type'), 'image/jpeg');
  const bytes = Buffer.from(await res.arrayBuffer());
  assert.is(bytes.subarray(0, 2).toString('hex'), 'ffd8', 'a JPEG');
  return { bytes, cacheControl: res.headers.get('cache-control') };
};
const assertInvalidTime = (res: Awaited<ReturnType<typeof get>>) => {
  assert.is(res.status, 400, res.text);
  assert.is(res.body.error.code, 'invalid_request');
  assert.is(res.body.error.details.field, 'time', res.text);
};

test('current still and recording stills: signed, served by nginx, made once, refused where they should be', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  const id: string = created.id;
  const cdn = app.config.publicUrls.cdn_url;

  // Before live: no still, no recording.
  const early = await get(`/v1/streams/${id}/thumbnail`);
  assert.is(early.status, 409, early.text);
  assert.equal([early.body.error.code, early.body.error.details.status], ['thumbnail_not_ready', 'pending']);
  const noRecording = await get(`/v1/streams/${id}/recording/thumbnail?time=1`);
  assert.is(noRecording.status, 409, noRecording.text);
  assert.is(noRecording.body.error.code, 'recording_not_ready');

  publisher = publish(app.rtmpUrl(created.stream_key), clip);
  await waitFor('a first still', async () => (await streamOf(app, key, id)).thumbnail, 30_000);

  const current = await get(`/v1/streams/${id}/thumbnail?expires_in=120`);
  assert.is(current.status, 200, current.text);
  assert.is(current.body.object, 'thumbnail');
  assert.is(current.body.stream_id, id);
  assert.is(current.body.time_seconds, null);
  assert.ok(current.body.captured_at);
  const expiresAt = Date.parse(current.body.expires_at);
  assert.ok(Math.abs(expiresAt - Date.now() - 120_000) < 5000, current.body.expires_at);
  assert.match(current.body.url, new RegExp(`^${cdn}/[A-Za-z0-9_-]{22}\\.[0-9]{10}/_thumb/${id}\\.jpg$`));
  const live = await jpeg(current.body.url);
  assert.is(live.cacheControl, 'private, max-age=10');

  // A tampered signature, an expired one, and another kind's signature open nothing.
  const tampered = current.body.url.replace(
    `${cdn}/${current.body.url.charAt(cdn.length + 1)}`,
    `${cdn}/${current.body.url.charAt(cdn.length + 1) === 'A' ? 'B' : 'A'}`,
  );
  assert.is((await fetch(tampered)).status, 403);
  const secret = cdnSecret(app.secrets.signing_key);
  const expired = signatureSegment(secret, 'thm', id, new Date(Date.now() - 60_000));
  assert.is((await fetch(`${cdn}/${expired}/_thumb/${id}.jpg`)).status, 403);
  const recKind = signatureSegment(secret, 'rec', id, new Date(Date.now() + 60_000));
  assert.is((await fetch(`${cdn}/${recKind}/_thumb/${id}.jpg`)).status, 403);

  // Another account's stream is no stream.
  assert.is((await get(`/v1/streams/${id}/thumbnail`, otherKey)).status, 404);
  assert.is((await get(`/v1/streams/${id}/recording/thumbnail`, otherKey)).status, 404);

  // The CLI prints the signed address.
  const flags = ['--base-url', app.config.publicUrls.base_url, '--api-key', key];
  assert.match(ok(await svc(['streams', 'thumbnail', id, ...flags])).stdout, `/_thumb/${id}.jpg`);

  await publisher.exited;
  assert.is((await app.call('DELETE', `/v1/streams/${id}`, { key })).status, 200);
  const ready = await waitFor(
    'recording ready',
    async () => {
      const s = await streamOf(app, key, id);
      return s.recording.status === 'ready' && s;
    },
    60_000,
  );
  const duration: number = ready.recording.duration_seconds;
  assert.ok(duration > 6, `recording of ${duration} s`);

  // Bad times name `time`; so does a time past the end.
  for (const time of ['-1', 'abc', String(duration + 1)])
    assertInvalidTime(await get(`/v1/streams/${id}/recording/thumbnail?time=${time}`));
  const unknown = await get(`/v1/streams/${id}/recording/thumbnail?at=1`);
  assert.is(unknown.status, 400, unknown.text);

  // Concurrent asks for one still all get it.
  const asked = await Promise.all([1, 1, 1.04].map((t) => get(`/v1/streams/${id}/recording/thumbnail?time=${t}`)));
  const one = asked[0]!;
  const same = asked.slice(1);
  assert.is(one.status, 200, one.text);
  assert.equal([one.body.time_seconds, one.body.captured_at], [1, null]);
  assert.match(one.body.url, new RegExp(`^${cdn}/[A-Za-z0-9_-]{22}\\.[0-9]{10}/_still/${id}/1\\.0\\.jpg$`));
  for (const r of same) assert.is(r.body.time_seconds, 1, r.text);
  const file = join(stillsDir(app.dataDir, id), '1.0.jpg');
  const made = statSync(file).mtimeMs;
  const first = await jpeg(one.body.url);
  assert.is(first.cacheControl, 'private, max-age=86400, immutable');

  const later = await get(`/v1/streams/${id}/recording/thumbnail?time=6`);
  assert.is(later.status, 200, later.text);
  const second = await jpeg(later.body.url);
  assert.not.ok(first.bytes.equals(second.bytes), 'stills at 1 s and 6 s differ');
  // The very end has a frame too.
  const end = await get(`/v1/streams/${id}/recording/thumbnail?time=${duration}`);
  assert.is(end.status, 200, end.text);
  await jpeg(end.body.url);

  // Cached: the second ask makes nothing new.
  await new Promise((r) => setTimeout(r, 50));
  const again = await get(`/v1/streams/${id}/recording/thumbnail?time=1.0`);
  assert.is(again.status, 200, again.text);
  assert.is(statSync(file).mtimeMs, made, 'the still is not made again');
  assert.ok((await jpeg(again.body.url)).bytes.equals(first.bytes));

  // The signature covers the still's time: it opens no other.
  assert.is((await fetch(one.body.url.replace('/1.0.jpg', '/6.0.jpg'))).status, 403);
  assert.is(
    (await fetch(one.body.url.replace(/\.(\d{10})\//, (_m: string, e: string) => `.${Number(e) - 1}/`))).status,
    403,
  );

  const cli = ok(await svc(['streams', 'recording', 'thumbnail', id, '--time', '2', ...flags])).stdout;
  assert.match(cli, `/_still/${id}/2.0.jpg`);
  const cliJson = ok(await svc(['streams', 'recording', 'thumbnail', id, '--time', '2', '--json', ...flags])).json;
  assert.equal([cliJson.object, cliJson.time_seconds], ['thumbnail', 2]);

  // Deleting the recording deletes its stills.
  assert.is((await app.call('DELETE', `/v1/streams/${id}/recording`, { key })).status, 200);
  assert.not.ok(existsSync(file));
  assert.is((await fetch(one.body.url)).status, 404);
  const gone = await get(`/v1/streams/${id}/recording/thumbnail?time=1`);
  assert.is(gone.status, 409, gone.text);
  assert.equal([gone.body.error.code, gone.body.error.details.status], ['recording_not_ready', 'deleted']);
});

test.run();
