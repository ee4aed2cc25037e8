import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { countedUntil, deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { startTestAppliance } from '../helpers/appliance.js';
import { fetchFrom, watchStream, type Received } from '../helpers/cdn-viewer.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { streamOf } from '../helpers/broadcast.js';

/**
 * The real appliance (nginx with the rendered config, the CDN log reader job) and a real ffmpeg
 * publisher; three players on different loopback addresses, two of them in the test country
 * table. The CDN log is rotated by the reader every few kilobytes while they watch.
 */
test('bytes delivered through the CDN equal the body bytes the players and a ranged recording download received; viewers per minute and countries from the log', async () => {
  const app = await startTestAppliance({
    cdn: { log_read_seconds: 1, country_table: { '127.0.0.2': 'DE', '127.0.0.3': 'FR' } },
    logs: { max_bytes: 4096 },
    live: { segment_seconds: 1, window_segments: 3 },
  });
  const players: ReturnType<typeof watchStream>[] = [];
  try {
    const { key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', { key, body: { profile: 'passthrough' } });
    assert.is(created.status, 201, created.text);
    const id: string = created.body.id;
    const publisher = publish(
      app.rtmpUrl(created.body.stream_key),
      await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 }),
      { loop: true },
    );
    // Every fetch through the CDN is tallied, this one too.
    const probes: Received = { bytes: 0, requests: 0, segments: 0 };
    const playbackUrl: string = await waitFor(
      'a playable stream',
      async () => {
        const s = await streamOf(app, key, id);
        return (
          s.status === 'live' &&
          s.playback_url &&
          (await fetchFrom(s.playback_url, { localAddress: '127.0.0.1', userAgent: 'probe' }, probes)).status === 200 &&
          s.playback_url
        );
      },
      60_000,
    );

    for (const [i, address] of ['127.0.0.1', '127.0.0.2', '127.0.0.3'].entries())
      players.push(watchStream(playbackUrl, { localAddress: address, userAgent: `player-${i}` }));
    await waitFor(
      'every player has fetched segments',
      async () => players.every((p) => p.received.segments >= 6),
      60_000,
    );
    // The still is public and not delivery: fetched, not counted.
    const thumbnail = await fetchFrom(
      created.body.thumbnail?.url ?? `${app.config.publicUrls.cdn_url}/_thumb/${id}.jpg`,
      { localAddress: '127.0.0.1', userAgent: 'x' },
      { bytes: 0, requests: 0, segments: 0 },
    );
    assert.is(thumbnail.status, 200);
    const watched: Received[] = [];
    for (const p of players) watched.push(await p.stop());
    players.length = 0;

    const ended = await app.call('DELETE', `/v1/streams/${id}`, { key });
    assert.is(ended.status, 200);
    await publisher.kill();
    const ready = await waitFor(
      'recording ready',
      async () => {
        const s = await streamOf(app, key, id);
        return s.recording.status === 'ready' && s;
      },
      60_000,
    );
    const download = await app.call('POST', `/v1/streams/${id}/recording/download`, { key });
    assert.is(download.status, 200, download.text);
    const downloads: Received = { bytes: 0, requests: 0, segments: 0 };
    const range = await fetchFrom(
      download.body.url,
      { localAddress: '127.0.0.2', userAgent: 'downloader', range: 'bytes=100-1099' },
      downloads,
    );
    assert.is(range.status, 206);
    assert.is(range.body.length, 1000);
    const whole = await fetchFrom(download.body.url, { localAddress: '127.0.0.2', userAgent: 'downloader' }, downloads);
    assert.is(whole.body.length, ready.recording.bytes);

    const expected = watched.reduce((sum, r) => sum + r.bytes, 0) + downloads.bytes + probes.bytes;
    await waitFor('the CDN log read', async () => (await deliveredBytes(app.db.sql, id)) >= expected, 30_000);
    await new Promise((r) => setTimeout(r, 2500));
    assert.is(await deliveredBytes(app.db.sql, id), expected, 'every byte once');
    assert.ok((await countedUntil(app.db.sql)) !== null);
    const log = readFileSync(join(app.dataDir, 'logs', 'svc.log'), 'utf8');
    assert.ok(log.includes('CDN log rotated'), 'the reader rotated the CDN log while the players watched');
    assert.not.ok(
      readFileSync(join(app.dataDir, 'logs', 'cdn-access.log'), 'utf8').includes('127.0.0.'),
      'no address in the CDN log',
    );

    // Three players, in one minute or across a minute boundary: never more than three a minute.
    await waitFor(
      'a finished minute in the series',
      async () => (await app.call('GET', `/v1/streams/${id}/viewers`, { key })).body.cdn.length > 0,
      90_000,
      1000,
    );
    const series = (await app.call('GET', `/v1/streams/${id}/viewers`, { key })).body;
    assert.ok(
      series.cdn.every((p: { viewers: number }) => p.viewers >= 1 && p.viewers <= 3),
      JSON.stringify(series.cdn),
    );
    assert.is(Math.max(...series.cdn.map((p: { viewers: number }) => p.viewers)), 3, JSON.stringify(series.cdn));
    // Each player watched the same minutes: a third of the watch time from each country.
    assert.equal(series.countries.map((c: { country: string }) => c.country).sort(), ['DE', 'FR', 'XX']);
    for (const c of series.countries) assert.ok(Math.abs(c.share - 1 / 3) < 0.2, JSON.stringify(series.countries));
    const total = series.countries.reduce((sum: number, c: { watch_minutes: number }) => sum + c.watch_minutes, 0);
    assert.ok(total >= 3, `watch minutes ${total}`);
    const viewers = (await streamOf(app, key, id)).viewers;
    assert.is(viewers.cdn_counted_until, (await countedUntil(app.db.sql))?.toISOString());
  } finally {
    for (const p of players) await p.stop();
    await app.close();
  }
});

test.run();
