import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { recordingFiles } from '../../src/domains/engine/recordings/files.js';
import { CdnAddresses, cdnSecret } from '../../src/domains/ledger/cdn/addresses.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { tamperedToken } from '../helpers/cdn-viewer.js';
import { waitFor } from '../helpers/publisher.js';

/** A stream's folder at the origin as the uploader leaves it: a master, a media playlist, one segment. */
async function streamWithFiles(app: TestAppliance): Promise<{ id: string; key: string; addresses: CdnAddresses }> {
  const { key } = await app.newAccount();
  const created = await app.call('POST', '/v1/streams', { key, body: {} });
  assert.is(created.status, 201, created.text);
  const id: string = created.body.id;
  const folder = join(dataPaths(app.dataDir).origin, id);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'master.m3u8'), '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nsource.m3u8\n');
  writeFileSync(
    join(folder, 'source.m3u8'),
    '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:7\n#EXTINF:4.000,\nsource_00007.ts\n',
  );
  writeFileSync(join(folder, 'source_00007.ts'), Buffer.alloc(1880, 0x47));
  // The origin's own address: what a CDN in front fetches from (cdn_url names the CDN).
  return {
    id,
    key,
    addresses: new CdnAddresses(app.config.publicUrls.cdn_url, cdnSecret(app.secrets.signing_key), 'query'),
  };
}

const get = (url: string, credential?: string, range?: string) =>
  fetch(url, { headers: { ...(credential ? { 'x-svc-edge': credential } : {}), ...(range ? { range } : {}) } });
const originLog = (app: TestAppliance) => readFileSync(dataPaths(app.dataDir).cdnLog, 'utf8');

test('the origin in the query token form: playlists whole with the token, refusals never cached, a CDN’s fetches not logged, a removed CDN refused', async () => {
  const app = await startTestAppliance({ cdn: { token_form: 'query' } });
  try {
    const { id, addresses } = await streamWithFiles(app);
    const url = addresses.playback(id, new Date(Date.now() + 600_000));
    const token = new URL(url).searchParams.get('svc');
    const master = await get(url);
    assert.is(master.status, 200);
    const body = await master.text();
    assert.is(body, `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=100000\nsource.m3u8?svc=${token}\n`);
    // Sent whole with its length (no chunk framing for a CDN's or the log's byte counts).
    assert.is(master.headers.get('content-length'), String(Buffer.byteLength(body)));
    assert.is(master.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    assert.is(master.headers.get('cache-control'), 'public, max-age=0, s-maxage=1');
    const media = await get(url.replace('master.m3u8', 'source.m3u8'));
    assert.match(await media.text(), `\nsource_00007.ts?svc=${token}\n`);
    assert.ok(media.headers.get('x-playlist-age'), 'a media playlist’s age, as in the path form');
    const segment = await get(url.replace('master.m3u8', 'source_00007.ts'));
    assert.is(segment.status, 200);
    assert.is((await segment.arrayBuffer()).byteLength, 1880);
    assert.is(segment.headers.get('cache-control'), 'public, max-age=86400, immutable');

    // Refusals and misses: never kept by a CDN (its cache key has no token).
    const forged = await get(tamperedToken(url));
    assert.is(forged.status, 403);
    assert.is(forged.headers.get('cache-control'), 'no-store');
    for (const bad of ['', '?svc=', '?svc=abc', `?svc=${token}.vsn_zzz`])
      assert.is((await get(`${app.config.publicUrls.cdn_url}/${id}/master.m3u8${bad}`)).status, 403, bad);
    const missing = await get(url.replace('master.m3u8', '720p.m3u8'));
    assert.is(missing.status, 404);
    assert.is(missing.headers.get('cache-control'), 'no-store');
    // A personal signature does not open another session's address, nor the recording a live one.
    const personal = addresses.personalPlayback(id, 'vsn_aaaaaaaaaaaaaaaaaaaa', new Date(Date.now() + 60_000));
    assert.is((await get(personal)).status, 200);
    assert.is((await get(personal.replace('vsn_aaaaaaaaaaaaaaaaaaaa', 'vsn_bbbbbbbbbbbbbbbbbbbb'))).status, 403);
    assert.is((await get(`${app.config.publicUrls.cdn_url}/_rec/${id}/recording.mp4?svc=${token}`)).status, 403);

    // A direct viewer is logged; a registered CDN's fetch is not (its own log is imported); a forged
    // credential is a direct viewer; a removed CDN's credential is refused at once.
    const cdn = await app.running.api.edges.add({ name: 'cdn-b', kind: 'cdn' });
    const credential = cdn.credential as string;
    const linesOf = () =>
      originLog(app)
        .split('\n')
        .filter((l) => l.includes(`${id}/source_00007.ts`)).length;
    const before = linesOf();
    assert.is((await get(url.replace('master.m3u8', 'source_00007.ts'), credential)).status, 200);
    assert.is((await get(url.replace('master.m3u8', 'source_00007.ts'), `${credential.slice(0, -1)}x`)).status, 200);
    assert.is((await get(url.replace('master.m3u8', 'source_00007.ts'))).status, 200);
    // nginx writes its log line as the answer ends; the next request's answer is after it.
    await get(`${app.config.publicUrls.cdn_url}/healthz`);
    assert.is(linesOf(), before + 2, 'the forged credential and the viewer logged, the CDN not');
    await app.running.api.edges.remove('cdn-b');
    assert.is((await get(url, credential)).status, 403);
    assert.is((await get(url)).status, 200);
  } finally {
    await app.close();
  }
});

test('a replay in the query token form: the playlist names its media and init section with the token, ranges served, the shared address refused once members-only', async () => {
  const app = await startTestAppliance({ cdn: { token_form: 'query' } });
  try {
    const { id, key, addresses } = await streamWithFiles(app);
    // A replay's folder as the recordings job leaves it (the playlist ffmpeg writes, one media file).
    const folder = recordingFiles(app.dataDir, id).replay;
    mkdirSync(folder, { recursive: true });
    const media = Buffer.from(Array.from({ length: 4000 }, (_, i) => i % 251));
    writeFileSync(join(folder, 'media.mp4'), media);
    writeFileSync(
      join(folder, 'index.m3u8'),
      '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n' +
        '#EXT-X-MAP:URI="media.mp4",BYTERANGE="800@0"\n#EXTINF:6.000,\n#EXT-X-BYTERANGE:3200@800\nmedia.mp4\n#EXT-X-ENDLIST\n',
    );
    const later = new Date(Date.now() + 600_000);
    const url = addresses.replay(id, later);
    assert.match(url, new RegExp(`/_replay/${id}/index\\.m3u8\\?svc=[A-Za-z0-9_-]{22}\\.\\d{10}$`));
    const token = new URL(url).searchParams.get('svc');
    const playlist = await get(url);
    assert.is(playlist.status, 200);
    const text = await playlist.text();
    assert.match(text, `#EXT-X-MAP:URI="media.mp4?svc=${token}",BYTERANGE="800@0"\n`);
    assert.match(text, `\n#EXT-X-BYTERANGE:3200@800\nmedia.mp4?svc=${token}\n#EXT-X-ENDLIST\n`);
    assert.is(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    assert.is(playlist.headers.get('cache-control'), 'no-cache');
    const piece = await get(url.replace('index.m3u8', 'media.mp4'), undefined, 'bytes=800-3999');
    assert.is(piece.status, 206);
    assert.is(piece.headers.get('cache-control'), 'public, max-age=300');
    assert.equal(Buffer.from(await piece.arrayBuffer()), media.subarray(800));

    // A live signature opens no replay; a forged one nothing, never cached.
    const live = addresses.playback(id, later).replace(`${id}/master.m3u8`, `_replay/${id}/index.m3u8`);
    assert.is((await get(live)).status, 403);
    const forged = await get(tamperedToken(url));
    assert.is(forged.status, 403);
    assert.is(forged.headers.get('cache-control'), 'no-store');
    // Members-only: the shared address is refused, a member's personal one opens it.
    const patched = await app.call('PATCH', `/v1/streams/${id}`, {
      key,
      body: { player: { require_viewer_token: true } },
    });
    assert.is(patched.status, 200, patched.text);
    await waitFor('the shared address refused', async () => (await get(url)).status === 403, 10_000);
    const personal = addresses.replay(id, later, 'vsn_aaaaaaaaaaaaaaaaaaaa');
    assert.is((await get(personal)).status, 200, 'a member’s own');
    assert.is((await get(personal.replace('vsn_aaaaaaaaaaaaaaaaaaaa', 'vsn_bbbbbbbbbbbbbbbbbbbb'))).status, 403);
  } finally {
    await app.close();
  }
});

test('cdn.direct_viewers off: query-token addresses answer a registered CDN only, and still check the token', async () => {
  const app = await startTestAppliance({ cdn: { token_form: 'query', direct_viewers: false } });
  try {
    const { id, addresses } = await streamWithFiles(app);
    const url = addresses.playback(id, new Date(Date.now() + 600_000));
    assert.is((await get(url)).status, 403);
    const { credential } = await app.running.api.edges.add({ name: 'cdn-c', kind: 'cdn' });
    assert.is((await get(url, credential as string)).status, 200);
    assert.is((await get(tamperedToken(url), credential as string)).status, 403);
    assert.is((await get(addresses.playback(id, new Date(Date.now() - 1000)), credential as string)).status, 403);
  } finally {
    await app.close();
  }
});

test.run();
