import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readEdgeFile } from '../../src/config/edge.js';
import { dataPaths } from '../../src/config/paths.js';
import { cdnSecret, signatureSegment } from '../../src/domains/ledger/cdn/addresses.js';
import { deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { joinOrigin } from '../../src/operator/edge-join.js';
import { OperatorError } from '../../src/operator/errors.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { fetchFrom, watchStream, type Received } from '../helpers/cdn-viewer.js';
import { onEdge, startTestEdge, type TestEdge } from '../helpers/edge.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';

/**
 * An edge against a real origin on loopback: the appliance as `svc up` runs it, an edge joined
 * with a token from `svc edges add` and started in this process (its own data dir, port and nginx),
 * a real ffmpeg publisher and players fetching through the edge only.
 */

/** Shorter periods for the test; loopback addresses mapped to countries like the origin's table. */
const joinEdge = (app: TestAppliance, name: string) =>
  startTestEdge(app, { name, settings: { country_table: { '127.0.0.2': 'DE' } } });

/** A GET whose 2xx body is tallied like fetchFrom's, with the answer's headers. */
async function tallied(url: string, into: Received): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(url);
  const body = Buffer.from(await res.arrayBuffer());
  into.requests++;
  if (res.status >= 200 && res.status < 300) into.bytes += body.length;
  return { status: res.status, headers: res.headers, body };
}

test('a wrong join token is refused with edge_join_refused and what to do; nothing is written', async () => {
  const app = await startTestAppliance();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-edge-'));
  try {
    const err = await joinOrigin({
      originApiUrl: app.config.publicUrls.base_url,
      token: 'ejt_wrong',
      dataDir,
      listenHost: '127.0.0.1',
      cdnPort: 8081,
      address: 'x',
    }).catch((e: unknown) => e);
    assert.instance(err, OperatorError);
    assert.is((err as OperatorError).code, 'edge_join_refused');
    assert.match((err as OperatorError).message, /svc edges add/);
    assert.throws(() => readEdgeFile(dataDir), /missing/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await app.close();
  }
});

test('playback through the edge: signatures checked at the edge, one origin fetch per segment whatever the query, the playlist age kept, every byte the clients got billed once', async () => {
  const app = await startTestAppliance({
    cdn: { log_read_seconds: 1 },
    live: { segment_seconds: 1, window_segments: 3 },
  });
  let edge: TestEdge | null = null;
  const players: ReturnType<typeof watchStream>[] = [];
  try {
    edge = await joinEdge(app, 'edge-a');
    const e = edge;
    const { key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', { key, body: { profile: 'passthrough' } });
    assert.is(created.status, 201, created.text);
    const id: string = created.body.id;
    const publisher = publish(
      app.rtmpUrl(created.body.stream_key),
      await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 }),
      { loop: true },
    );
    // Every fetch through the edge is tallied; nothing is fetched from the origin's CDN port directly.
    const probes: Received = { bytes: 0, requests: 0, segments: 0 };
    const playbackUrl: string = await waitFor(
      'a stream playable through the edge',
      async () => {
        const s = await streamOf(app, key, id);
        const url = s.status === 'live' && s.playback_url ? onEdge(app, e, s.playback_url) : null;
        return (
          url && (await fetchFrom(url, { localAddress: '127.0.0.1', userAgent: 'probe' }, probes)).status === 200 && url
        );
      },
      60_000,
    );

    // Forged and expired signatures: 403 at the edge, never fetched from the origin.
    const signature = (/^https?:\/\/[^/]+\/([^/]+)\//.exec(playbackUrl) as RegExpExecArray)[1] as string;
    const forged = playbackUrl.replace(signature, `${'A'.repeat(22)}${signature.slice(22)}`);
    const secret = cdnSecret(app.secrets.signing_key);
    const expired = playbackUrl.replace(signature, signatureSegment(secret, 'hls', id, new Date(Date.now() - 60_000)));
    const elsewhere = playbackUrl.replace(
      signature,
      signatureSegment(secret, 'rec', id, new Date(Date.now() + 60_000)),
    );
    for (const url of [forged, expired, elsewhere])
      assert.is((await fetchFrom(url, { localAddress: '127.0.0.1', userAgent: 'probe' }, probes)).status, 403, url);
    // The public embed address and a member's personal one are checked at the edge too.
    const later = new Date(Date.now() + 600_000);
    const session = `vsn_${'a'.repeat(20)}`;
    const publicUrl = playbackUrl.replace(signature, signatureSegment(secret, 'pub', id, later));
    const personal = playbackUrl.replace(
      `${signature}/`,
      `${signatureSegment(secret, 'hls', id, later, session)}/${session}/`,
    );
    const otherSession = personal.replace(session, `vsn_${'b'.repeat(20)}`);
    for (const [url, status] of [
      [publicUrl, 200],
      [personal, 200],
      [otherSession, 403],
    ] as const)
      assert.is((await fetchFrom(url, { localAddress: '127.0.0.1', userAgent: 'probe' }, probes)).status, status, url);

    for (const [i, address] of ['127.0.0.1', '127.0.0.2'].entries())
      players.push(watchStream(playbackUrl, { localAddress: address, userAgent: `player-${i}` }));
    await waitFor(
      'every player has fetched segments',
      async () => players.every((p) => p.received.segments >= 4),
      60_000,
    );

    // A media playlist's age, from the origin's file time; the origin's own header stays at the edge.
    const master = await tallied(playbackUrl, probes);
    const variant = master.body
      .toString()
      .split('\n')
      .find((l) => l.endsWith('.m3u8')) as string;
    const base = playbackUrl.slice(0, playbackUrl.lastIndexOf('/') + 1);
    const media = await tallied(base + variant, probes);
    const age = Number(media.headers.get('x-playlist-age'));
    assert.ok(media.headers.get('x-playlist-age') !== null && age >= 0 && age < 10, `X-Playlist-Age ${age}`);
    assert.is(media.headers.get('x-playlist-modified'), null);
    assert.is(media.headers.get('access-control-expose-headers'), 'X-Playlist-Age');
    assert.is(media.headers.get('access-control-allow-origin'), '*');
    assert.is(master.headers.get('x-playlist-age'), null, 'a master playlist has no age');

    // Cache busting: the same segment with queries is answered from the edge's cache.
    const segment = media.body
      .toString()
      .split('\n')
      .filter((l) => l.endsWith('.ts'))[0] as string;
    for (const bust of ['?bust=1', '?bust=2&x=y'])
      assert.is(
        (await fetchFrom(base + segment + bust, { localAddress: '127.0.0.1', userAgent: 'buster' }, probes)).status,
        200,
      );

    const watched: Received[] = [];
    for (const p of players) watched.push(await p.stop());
    players.length = 0;

    // Every segment went to the origin once (MISS), whoever asked and however (queries included).
    const segmentLines = e.lines().filter((l) => l.path.endsWith('.ts') && l.status === 200);
    const fetchesByPath = new Map<string, number>();
    for (const l of segmentLines)
      if (l.cache === 'MISS' || l.cache === 'EXPIRED') fetchesByPath.set(l.path, (fetchesByPath.get(l.path) ?? 0) + 1);
    assert.ok(fetchesByPath.size >= 4, `segments fetched from the origin: ${fetchesByPath.size}`);
    for (const [path, fetches] of fetchesByPath) assert.is(fetches, 1, `${path} fetched ${fetches} times`);
    const busted = `/${id}/${segment}`;
    assert.is(segmentLines.filter((l) => l.path === busted).length >= 3, true, 'the busted fetches are logged');
    assert.is(fetchesByPath.get(busted), 1, 'the busted segment reached the origin once');
    assert.ok(
      segmentLines.some((l) => l.country === 'DE') && segmentLines.some((l) => l.country === 'XX'),
      'countries from the edge',
    );

    // A recording through the edge, in ranges.
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
    const recordingUrl = onEdge(app, e, download.body.url);
    const downloads: Received = { bytes: 0, requests: 0, segments: 0 };
    const range = await fetchFrom(
      recordingUrl,
      { localAddress: '127.0.0.2', userAgent: 'downloader', range: 'bytes=100-1099' },
      downloads,
    );
    assert.is(range.status, 206);
    assert.is(range.body.length, 1000);
    const whole = await fetchFrom(recordingUrl, { localAddress: '127.0.0.2', userAgent: 'downloader' }, downloads);
    assert.is(whole.status, 200);
    assert.is(whole.body.length, ready.recording.bytes);

    // The ledger: exactly what the clients received through the edge, once.
    const expected = watched.reduce((sum, r) => sum + r.bytes, 0) + downloads.bytes + probes.bytes;
    await waitFor(
      "the edge's log counted by the origin",
      async () => (await deliveredBytes(app.db.sql, id)) >= expected,
      30_000,
    );
    await new Promise((r) => setTimeout(r, 2500));
    assert.is(await deliveredBytes(app.db.sql, id), expected, 'every byte once');
    const state = e.running.state();
    assert.ok(state.origin.reachable && state.served.hits > 0 && state.served.misses > 0, JSON.stringify(state));
  } finally {
    for (const p of players) await p.stop();
    await edge?.close();
    await app.close();
  }
});

test('the origin stopped under a watching edge: cached segments and playlists are still served, the edge retries quietly, and once the origin is back every byte is billed once', async () => {
  const app = await startTestAppliance({
    cdn: { log_read_seconds: 1 },
    live: { segment_seconds: 1, window_segments: 3 },
  });
  let edge: TestEdge | null = null;
  try {
    edge = await joinEdge(app, 'edge-b');
    const e = edge;
    const { key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', { key, body: { profile: 'passthrough' } });
    const id: string = created.body.id;
    const publisher = publish(
      app.rtmpUrl(created.body.stream_key),
      await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 }),
      { loop: true },
    );
    const got: Received = { bytes: 0, requests: 0, segments: 0 };
    const playbackUrl: string = await waitFor(
      'a stream playable through the edge',
      async () => {
        const s = await streamOf(app, key, id);
        const url = s.status === 'live' && s.playback_url ? onEdge(app, e, s.playback_url) : null;
        return url && (await tallied(url, got)).status === 200 && url;
      },
      60_000,
    );
    const base = playbackUrl.slice(0, playbackUrl.lastIndexOf('/') + 1);
    const variant = (await tallied(playbackUrl, got)).body
      .toString()
      .split('\n')
      .find((l) => l.endsWith('.m3u8'));
    const media = await waitFor(
      'a playlist with segments',
      async () => {
        const m = await tallied(base + variant, got);
        return m.body.toString().includes('.ts') && m;
      },
      30_000,
    );
    const segment = media.body
      .toString()
      .split('\n')
      .filter((l) => l.endsWith('.ts'))
      .at(-1) as string;
    assert.is((await tallied(base + segment, got)).status, 200);
    await publisher.kill();

    await app.running.stop();
    // The origin is away: what the edge has is served as it is.
    assert.is((await tallied(base + segment, got)).status, 200, 'a cached segment');
    assert.is((await tallied(base + variant, got)).status, 200, 'a stale playlist');
    await waitFor('the edge noticed', async () => !e.running.state().origin.reachable, 15_000);

    await app.restart();
    await waitFor('the edge reaches the origin again', async () => e.running.state().origin.reachable, 30_000);
    await waitFor('every byte counted', async () => (await deliveredBytes(app.db.sql, id)) >= got.bytes, 30_000);
    await new Promise((r) => setTimeout(r, 2500));
    assert.is(await deliveredBytes(app.db.sql, id), got.bytes, 'every byte once');
    const log = readFileSync(dataPaths(e.dataDir).edgeLog, 'utf8');
    assert.ok(log.includes('works again'), 'the recovery is logged');
  } finally {
    await edge?.close();
    await app.close();
  }
});

test.run();
