import * as assert from 'uvu/assert';
import type { TestAppliance } from './appliance.js';
import { waitFor, type Publisher } from './publisher.js';

/** Steps of a broadcast that several end-to-end tests check the same way. */

export async function streamOf(app: TestAppliance, key: string, id: string) {
  const res = await app.call('GET', `/v1/streams/${id}`, { key });
  assert.is(res.status, 200, res.text);
  return res.body;
}

const publisherRecorded = async (app: TestAppliance, id: string, connected: boolean) =>
  (await app.db.sql`select 1 from streams where id = ${id} and (publisher_client_id is not null) = ${connected}`)
    .length > 0;

/**
 * The publisher is killed after `seconds` and a new one starts within the window: the stream
 * stays live, with one `stream.live`. Returns the new publisher and what the first one sent.
 */
export async function killAndReconnect(
  app: TestAppliance,
  key: string,
  id: string,
  first: Publisher,
  seconds: number,
  restart: () => Publisher,
): Promise<{ again: Publisher; sentFirst: number }> {
  await waitFor(`${seconds} s sent`, async () => first.sentSeconds() >= seconds, 30_000);
  await first.kill();
  const sentFirst = first.sentSeconds();
  await waitFor('publisher recorded as gone', () => publisherRecorded(app, id, false));
  const again = restart();
  await waitFor('publisher back', () => publisherRecorded(app, id, true));
  assert.is((await streamOf(app, key, id)).status, 'live');
  const live = await app.db.sql`select 1 from events where stream_id = ${id} and type = 'stream.live'`;
  assert.is(live.length, 1, 'no second stream.live for a reconnect');
  return { again, sentFirst };
}

/** DELETE on a live stream: ended `deleted`, no playback URL, and the publisher dropped within seconds. */
export async function deleteDropsPublisher(
  app: TestAppliance,
  key: string,
  id: string,
  publisher: Publisher,
): Promise<number> {
  const ended = await app.call('DELETE', `/v1/streams/${id}`, { key });
  const sent = publisher.sentSeconds();
  assert.is(ended.status, 200, ended.text);
  assert.is(ended.body.status, 'ended');
  assert.is(ended.body.end_reason, 'deleted');
  assert.is(ended.body.playback_url, null);
  const dropped = await Promise.race([
    publisher.exited.then(() => true),
    new Promise((r) => setTimeout(() => r(false), 5000)),
  ]);
  assert.ok(dropped, 'the publisher is dropped within seconds');
  return sent;
}

/** The MP4 becomes ready, as long as what was sent (±1 s), and downloads with range requests. */
export async function recordingMatches(
  app: TestAppliance,
  key: string,
  id: string,
  sentSeconds: number,
): Promise<void> {
  const ready = await waitFor(
    'recording ready',
    async () => {
      const s = await streamOf(app, key, id);
      return s.recording.status === 'ready' && s;
    },
    60_000,
  );
  const duration = ready.recording.duration_seconds;
  assert.ok(Math.abs(duration - sentSeconds) <= 1, `recording ${duration} s, sent ${sentSeconds.toFixed(2)} s`);
  assert.ok(ready.recording.bytes > 0);
  assert.ok(ready.recording.ready_at);
  const events = await app.db.sql`select 1 from events where stream_id = ${id} and type = 'recording.ready'`;
  assert.is(events.length, 1);

  const download = await app.call('POST', `/v1/streams/${id}/recording/download`, { key });
  assert.is(download.status, 200, download.text);
  assert.is(download.body.bytes, ready.recording.bytes);
  const range = await fetch(download.body.url, { headers: { range: 'bytes=0-99' } });
  assert.is(range.status, 206);
  assert.is((await range.arrayBuffer()).byteLength, 100);
  assert.is(range.headers.get('content-range'), `bytes 0-99/${ready.recording.bytes}`);
  // The MP4 starts with its index (faststart): ftyp, then moov before mdat.
  const head = Buffer.from(
    await (await fetch(download.body.url, { headers: { range: 'bytes=0-4095' } })).arrayBuffer(),
  ).toString('latin1');
  assert.ok(
    head.indexOf('moov') > 0 && (head.indexOf('mdat') === -1 || head.indexOf('moov') < head.indexOf('mdat')),
    'moov first',
  );
  // A download signature does not open the live folder, and a tampered one opens nothing.
  assert.is(
    (await fetch(download.body.url.replace(/\/_rec\/(str_[a-z0-9]{20})\/recording\.mp4$/, '/$1/master.m3u8'))).status,
    403,
  );
  assert.is(
    (await fetch(download.body.url.replace(/\.(\d{10})\//, (_m: string, e: string) => `.${Number(e) - 1}/`))).status,
    403,
  );
}
