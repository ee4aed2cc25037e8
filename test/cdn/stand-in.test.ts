import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { CdnAddresses, cdnSecret } from '../../src/domains/ledger/cdn/addresses.js';
import { countedUntil, deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { fetchFrom, tamperedToken, watchStream, type Received } from '../helpers/cdn-viewer.js';
import { ok, startSvc, svc } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { streamOf } from '../helpers/broadcast.js';
import { startStandInCdn } from '../helpers/stand-in-cdn.js';
import { viewerToken } from '../helpers/viewer-tokens.js';

interface LogpushLine {
  ClientRequestPath: string;
  ClientRequestURI: string;
  EdgeResponseStatus: number;
  EdgeResponseBodyBytes: number;
  CacheCacheStatus: string;
}

/** A data dir for the CLI on the test appliance's database and secrets (as the operator's own machine has). */
function cliDataDir(app: TestAppliance): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-cdn-'));
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ database_url: app.db.url }));
  writeFileSync(join(dir, 'secrets.json'), JSON.stringify(app.secrets), { mode: 0o600 });
  return dir;
}

/** 2xx body bytes of a stream's playlists, segments and recording in Logpush lines: what the CDN delivered of it. */
const deliveredIn = (lines: LogpushLine[], id: string) =>
  lines
    .filter(
      (l) =>
        l.EdgeResponseStatus >= 200 &&
        l.EdgeResponseStatus < 300 &&
        (l.ClientRequestPath.startsWith(`/${id}/`) || l.ClientRequestPath === `/_rec/${id}/recording.mp4`),
    )
    .reduce((sum, l) => sum + l.EdgeResponseBodyBytes, 0);

/**
 * The query token form behind a real caching proxy standing in for a third-party CDN (a second
 * nginx set up as docs/operations.md tells a CDN to be), a real publisher, players on two loopback
 * addresses (the owner's shared address and a member's personal one), then the CDN's log imported.
 */
test('a CDN in front: tokens in the query, one copy of each segment, forged and expired tokens refused at the origin, its log imported once', async () => {
  const cdnPort = await freePort();
  const app = await startTestAppliance({
    cdn: { token_form: 'query', log_read_seconds: 1 },
    public_urls: { cdn_url: `http://127.0.0.1:${cdnPort}` },
    live: { segment_seconds: 1, window_segments: 3 },
  });
  // Registered as `svc edges add --name standin --kind cdn` does: the header it prints.
  const { credential } = await app.running.api.edges.add({ name: 'standin', kind: 'cdn' });
  const cdn = await startStandInCdn({
    origin: `127.0.0.1:${app.config.ports.cdn}`,
    credential: credential ?? '',
    port: cdnPort,
    countries: { '127.0.0.2': 'DE', '127.0.0.3': 'FR' },
  });
  const players: ReturnType<typeof watchStream>[] = [];
  const cliDir = cliDataDir(app);
  try {
    const { id: accountId, key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', {
      key,
      body: { profile: 'passthrough', player: { require_viewer_token: true } },
    });
    assert.is(created.status, 201, created.text);
    const id: string = created.body.id;
    const publisher = publish(
      app.rtmpUrl(created.body.stream_key),
      await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 }),
      { loop: true },
    );
    // Every fetch through the stand-in CDN is tallied: the import must count exactly these bytes.
    const fetched: Received = { bytes: 0, requests: 0, segments: 0 };
    const viaCdn = (url: string, userAgent = 'probe') =>
      fetchFrom(url, { localAddress: '127.0.0.1', userAgent }, fetched);

    const playbackUrl: string = await waitFor(
      'a playable stream through the CDN',
      async () => {
        const s = await streamOf(app, key, id);
        return s.status === 'live' && s.playback_url && (await viaCdn(s.playback_url)).status === 200 && s.playback_url;
      },
      60_000,
    );
    // The owner's address: the CDN's host, the stream's path, the token in `svc`.
    const token = new URL(playbackUrl).searchParams.get('svc') ?? '';
    assert.is(playbackUrl, `${cdn.url}/${id}/master.m3u8?svc=${token}`);
    assert.match(token, /^[A-Za-z0-9_-]{22}\.[0-9]{10}$/);
    // Playlists name what they list with the same token (players drop the playlist's own query).
    const master = (await viaCdn(playbackUrl)).body.toString();
    const variants = master.split('\n').filter((l) => l && !l.startsWith('#'));
    assert.ok(variants.length > 0, master);
    for (const v of variants) assert.match(v, new RegExp(`^[a-z0-9]+\\.m3u8\\?svc=${token.replace('.', '\\.')}$`));

    // A member's personal address (the session through the player site), in the same form.
    const viewerKey = await app.accounts.createViewerKey(accountId);
    const session = await (
      await fetch(`${app.config.publicUrls.player_url}/api/embed/${id}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ viewer_token: await viewerToken(viewerKey, new Date(), { sub: 'pupil-1' }) }),
      })
    ).json();
    const personalUrl: string = session.playback.url;
    assert.match(
      personalUrl,
      new RegExp(`^${cdn.url}/${id}/master\\.m3u8\\?svc=[A-Za-z0-9_-]{22}\\.[0-9]{10}\\.${session.id}$`),
    );

    players.push(watchStream(playbackUrl, { localAddress: '127.0.0.2', userAgent: 'owner-player' }));
    players.push(watchStream(personalUrl, { localAddress: '127.0.0.3', userAgent: 'member-player' }));
    await waitFor('both players fetched segments', async () => players.every((p) => p.received.segments >= 4), 60_000);
    const tallies: number[] = [fetched.bytes];
    for (const p of players) {
      const r = await p.stop();
      tallies.push(r.bytes);
      fetched.bytes += r.bytes;
      fetched.requests += r.requests;
    }
    players.length = 0;

    // Forged and expired tokens: refused by the origin on a miss (playlists are keyed by their token).
    const forged = tamperedToken(playbackUrl);
    assert.is((await viaCdn(forged)).status, 403, 'a forged token on a playlist');
    const addresses = new CdnAddresses(cdn.url, cdnSecret(app.secrets.signing_key), 'query');
    assert.is((await viaCdn(addresses.playback(id, new Date(Date.now() - 1000)))).status, 403, 'an expired token');
    // The embed read's shared address of a members-only stream: refused (its marker, at the origin).
    assert.is((await viaCdn(addresses.publicPlayback(id, new Date(Date.now() + 600_000)))).status, 403);
    const forgedToken = new URL(forged).searchParams.get('svc');
    assert.is(
      (await viaCdn(`${cdn.url}/${id}/source_99999.ts?svc=${forgedToken}`)).status,
      403,
      'a segment not cached',
    );
    assert.is((await viaCdn(`${cdn.url}/${id}/source_99999.ts`)).status, 403, 'no token at all');

    // The embed read's shared address (`pub`, checked by njs at the origin) of an open player: served,
    // its playlists naming the same token; once the player closes, refused when the CDN's second is up.
    const other = (await app.call('POST', '/v1/streams', { key, body: {} })).body;
    const folder = join(dataPaths(app.dataDir).origin, other.id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nsource.m3u8\n');
    const elsewhere: Received = { bytes: 0, requests: 0, segments: 0 };
    const pubUrl = addresses.publicPlayback(other.id, new Date(Date.now() + 600_000));
    const pub = await fetchFrom(pubUrl, { localAddress: '127.0.0.1', userAgent: 'embed' }, elsewhere);
    assert.is(pub.status, 200);
    assert.ok(pub.body.toString().endsWith(`\nsource.m3u8?svc=${new URL(pubUrl).searchParams.get('svc')}\n`));
    const closed = await app.call('PATCH', `/v1/streams/${other.id}`, { key, body: { player: { enabled: false } } });
    assert.is(closed.status, 200, closed.text);
    await waitFor(
      'the closed player refused through the CDN',
      async () =>
        (await fetchFrom(pubUrl, { localAddress: '127.0.0.1', userAgent: 'embed' }, elsewhere)).status === 403,
      5000,
      250,
    );

    const standInLog = () =>
      readFileSync(cdn.logFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as LogpushLine);
    // One origin fetch per segment, whichever token asked: the personal player's segments came from the owner's copy.
    const segmentLines = standInLog().filter(
      (l) => l.ClientRequestPath.endsWith('.ts') && l.EdgeResponseStatus === 200,
    );
    const misses = new Map<string, number>();
    for (const l of segmentLines)
      if (l.CacheCacheStatus === 'MISS') misses.set(l.ClientRequestPath, (misses.get(l.ClientRequestPath) ?? 0) + 1);
    assert.ok(segmentLines.length > misses.size, 'some segments were served from the cache');
    for (const [path, n] of misses) assert.is(n, 1, `${path} fetched from the origin ${n} times`);

    // What a cache-around CDN lets through: a cached segment, to a forged token or none (docs/operations.md).
    const cachedSegment = segmentLines[0]?.ClientRequestPath ?? '';
    const hit = await viaCdn(`${cdn.url}${cachedSegment}?svc=${forgedToken}`);
    assert.is(hit.status, 200);
    // Cache-busting parameters: still the one copy; the origin never sees them.
    for (let i = 0; i < 3; i++)
      assert.is(
        (await viaCdn(`${cdn.url}${cachedSegment}?svc=${token}&x=${randomBytes(4).toString('hex')}`)).status,
        200,
      );
    // Each of them a hit: none went to the origin.
    assert.ok(standInLog().every((l) => !l.ClientRequestURI.includes('x=') || l.CacheCacheStatus === 'HIT'));

    await app.call('DELETE', `/v1/streams/${id}`, { key });
    await publisher.kill();
    // The recording's download address in the same form, through the CDN (ranges pass; never cached: private).
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
    assert.match(
      download.body.url,
      new RegExp(`^${cdn.url}/_rec/${id}/recording\\.mp4\\?svc=[A-Za-z0-9_-]{22}\\.[0-9]{10}$`),
    );
    const range = await fetchFrom(
      download.body.url,
      { localAddress: '127.0.0.2', userAgent: 'downloader', range: 'bytes=100-1099' },
      fetched,
    );
    assert.is(range.status, 206);
    assert.is(range.body.length, 1000);
    const whole = await fetchFrom(download.body.url, { localAddress: '127.0.0.2', userAgent: 'downloader' }, fetched);
    assert.is(whole.body.length, ready.recording.bytes);
    assert.is((await viaCdn(download.body.url.replace(/svc=[^.]+/, 'svc=AAAAAAAAAAAAAAAAAAAAAA'))).status, 403);
    // A live signature does not open the recording.
    assert.is((await viaCdn(`${cdn.url}/_rec/${id}/recording.mp4?svc=${token}`)).status, 403);

    // The CDN's log, gzipped as Logpush delivers it. The origin's own log counted the CDN's misses
    // (until the CDN's credential keeps them out of it): the import adds what the CDN delivered.
    const lines = standInLog();
    const byAgent: Record<string, number> = {};
    for (const l of lines as (LogpushLine & { ClientRequestUserAgent: string })[])
      if (l.EdgeResponseStatus < 300)
        byAgent[l.ClientRequestUserAgent] = (byAgent[l.ClientRequestUserAgent] ?? 0) + l.EdgeResponseBodyBytes;
    assert.is(
      deliveredIn(lines, id),
      fetched.bytes,
      `the stand-in logged every byte the clients received ${JSON.stringify(byAgent)} ${JSON.stringify(tallies)}`,
    );
    const file = join(cliDir, 'logpush-1.log.gz');
    writeFileSync(file, gzipSync(readFileSync(cdn.logFile)));
    // The origin's own log counted none of it: the CDN's fetches carry its credential and stay out of
    // it (the CDN's log is what counts, once imported).
    const readFrom = new Date();
    await waitFor(
      'the origin log read past the last fetch',
      async () => ((await countedUntil(app.db.sql))?.getTime() ?? 0) > readFrom.getTime(),
      30_000,
      500,
    );
    assert.not.ok(
      readFileSync(dataPaths(app.dataDir).cdnLog, 'utf8').includes(id),
      'no line of the stream at the origin',
    );
    const counted = await deliveredBytes(app.db.sql, id);
    assert.is(counted, 0);

    const env = { SVC_DATA_DIR: cliDir };
    const first = ok(await svc(['cdn', 'import', '--source', 'standin', file, '--json'], { env })).json;
    assert.is(first.files[0].imported, true);
    assert.is(first.files[0].delivered_bytes, fetched.bytes + elsewhere.bytes, "every stream's bytes in the file");
    assert.is(await deliveredBytes(app.db.sql, id), counted + fetched.bytes);
    const again = ok(await svc(['cdn', 'import', '--source', 'standin', file], { env }));
    assert.match(again.stdout, 'already imported');
    assert.is(await deliveredBytes(app.db.sql, id), counted + fetched.bytes, 'a second import adds nothing');

    // Countries and viewer ids from the CDN's log (the two players, DE and FR).
    const countries = await app.db.sql<{ country: string }[]>`
      select distinct country from cdn_viewer_ids where stream_id = ${id}
      union select country from cdn_countries where stream_id = ${id}`;
    const codes = countries.map((c) => c.country);
    assert.ok(codes.includes('DE') && codes.includes('FR'), JSON.stringify(codes));

    // Exactly once across a kill -9 inside the import's transaction: the test holds a lock the
    // transaction needs, kills the importer while it waits, and nothing of the file counted.
    const half = lines.slice(0, Math.ceil(lines.length / 2));
    const halfFile = join(cliDir, 'logpush-2.log');
    writeFileSync(halfFile, half.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const halfBytes = deliveredIn(half, id);
    assert.ok(halfBytes > 0);
    const holder = await app.db.sql.reserve();
    let child: ReturnType<typeof startSvc> | null = null;
    let waiting = 0;
    try {
      await holder`begin`;
      await holder`lock table delivery_minutes in share mode`;
      const spawnedAt = new Date();
      child = startSvc(['cdn', 'import', '--source', 'standin', halfFile], { env });
      // The appliance's own log reader may wait on the same lock: the CLI's backend is the one it opened after the spawn.
      waiting = await waitFor(
        'the import waiting inside its transaction',
        async () => {
          const [row] = await app.db.sql<{ pid: number }[]>`
            select pid from pg_stat_activity
            where wait_event_type = 'Lock' and query like '%delivery_minutes%' and backend_start >= ${spawnedAt}
            order by backend_start desc limit 1`;
          return row?.pid;
        },
        30_000,
        100,
      );
      child.kill('SIGKILL');
      await child;
    } finally {
      await holder`rollback`;
      holder.release();
    }
    // Its backend ends once it finds its client gone (the transaction never got its commit).
    await waitFor(
      'the killed importer gone from the database',
      async () => (await app.db.sql`select 1 from pg_stat_activity where pid = ${waiting}`).length === 0,
      30_000,
      100,
    );
    assert.is(await deliveredBytes(app.db.sql, id), counted + fetched.bytes, 'the killed import added nothing');
    const [imports] = await app.db.sql<{ n: number }[]>`select count(*)::int as n from cdn_log_imports`;
    assert.is(imports?.n, 1, 'only the first file is on record');
    const resumed = ok(await svc(['cdn', 'import', '--source', 'standin', halfFile, '--json'], { env })).json;
    assert.is(resumed.files[0].imported, true);
    assert.is(await deliveredBytes(app.db.sql, id), counted + fetched.bytes + halfBytes);
    ok(await svc(['cdn', 'import', '--source', 'standin', halfFile], { env }));
    assert.is(await deliveredBytes(app.db.sql, id), counted + fetched.bytes + halfBytes, 'counted once');

    // An unknown CDN, and a file that is not gzip all through: refused, nothing added.
    const unknown = await svc(['cdn', 'import', '--source', 'nope', file, '--json'], { env });
    assert.ok(unknown.code !== 0);
    assert.is(unknown.json.error.code, 'unknown_cdn');
    const torn = join(cliDir, 'torn.log.gz');
    const gz = readFileSync(file);
    writeFileSync(torn, gz.subarray(0, Math.floor(gz.length / 2)));
    const tornRun = await svc(['cdn', 'import', '--source', 'standin', torn, '--json'], { env });
    assert.ok(tornRun.code !== 0, tornRun.stdout);
    assert.is(tornRun.json.error.code, 'unreadable_file');
    assert.is(await deliveredBytes(app.db.sql, id), counted + fetched.bytes + halfBytes);
  } finally {
    for (const p of players) await p.stop();
    await cdn.close();
    await app.close();
    rmSync(cliDir, { recursive: true, force: true });
  }
});

test.run();
