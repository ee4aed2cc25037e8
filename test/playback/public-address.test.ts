import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { REFUSALS_EVERY_MS } from '../../src/domains/streams/public-playback.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { viewerToken } from '../helpers/viewer-tokens.js';

/**
 * The embed read's shared address, through the real nginx with a real publisher: closing the
 * player or making it members-only stops it at the next request, while the owner's address, a
 * playback token's and a member's personal one keep working; reopening makes it work again.
 * Refusals never tell which renditions exist or how fresh they are.
 */
let app: TestAppliance;
let key: string;
let accountId: string;
let publisher: Publisher | null = null;

test.before(async () => {
  app = await startTestAppliance();
  ({ key, id: accountId } = await app.newAccount());
});
test.after(async () => {
  await publisher?.kill();
  await app.close();
});

const status = async (url: string) => (await fetch(url)).status;
const patchPlayer = async (id: string, player: Record<string, unknown>) => {
  const res = await app.call('PATCH', `/v1/streams/${id}`, { key, body: { player } });
  assert.is(res.status, 200, res.text);
};
/** The shared address as a player gets it (the API's read; the player site caches it for a second). */
const embedUrl = async (id: string): Promise<string | null> =>
  (await app.call('GET', `/v1/embed/${id}`)).body.playback_url;

test('closing or locking the player stops the shared address at once; the owner’s, tokens’ and members’ keep working', async () => {
  const clip = await makeClip({ width: 426, height: 240, seconds: 12, gopSeconds: 1 });
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  publisher = publish(app.rtmpUrl(created.stream_key), clip, { loop: true });
  const owner = await waitFor('live', async () => {
    const s = (await app.call('GET', `/v1/streams/${created.id}`, { key })).body;
    return s.status === 'live' && s;
  });
  await waitFor('a playable master', async () => (await status(owner.playback_url)) === 200, 30_000);
  const shared = (await embedUrl(created.id)) ?? '';
  assert.ok(shared && shared !== owner.playback_url, 'the embed read has its own address');
  const sharedMedia = shared.replace('master.m3u8', 'source.m3u8');
  assert.is(await status(shared), 200);
  await waitFor('a media playlist', async () => (await status(sharedMedia)) === 200);
  const token = (await app.call('POST', `/v1/streams/${created.id}/playback-token`, { key, body: { expires_in: 600 } }))
    .body.playback_url;

  // Switched off: from the PATCH's answer on, every request is refused (nginx looks at the marker each time).
  const closedAt = performance.now();
  await patchPlayer(created.id, { enabled: false });
  assert.is(await status(sharedMedia), 403, 'the first request after the answer');
  console.log(
    `    shared address refused ${((performance.now() - closedAt) / 1000).toFixed(3)} s after the PATCH was sent`,
  );
  assert.is(await status(shared), 403);
  for (const url of [owner.playback_url, token]) assert.is(await status(url), 200, url);
  assert.is(await status(owner.playback_url.replace('master.m3u8', 'source.m3u8')), 200);

  // Reopened: the same shared address works again.
  await patchPlayer(created.id, { enabled: true });
  assert.is(await status(sharedMedia), 200);

  // Members-only: the shared address stops; a member's personal address and the owner's work.
  await patchPlayer(created.id, { require_viewer_token: true });
  assert.is(await status(shared), 403);
  const viewerKey = await app.accounts.createViewerKey(accountId);
  // The public side reads a stream at most once a second: sessions are personal once it knows.
  await waitFor(
    'the members-only embed read',
    async () => (await app.call('GET', `/v1/embed/${created.id}`)).body.access === 'viewer_token',
  );
  const session = await app.call('POST', `/v1/embed/${created.id}/session`, {
    body: { viewer_token: await viewerToken(viewerKey, new Date()) },
  });
  assert.is(session.status, 200, session.text);
  assert.is(await status(session.body.playback.url), 200);
  assert.is(await status(owner.playback_url), 200);
  assert.is(await status(token), 200);
  await patchPlayer(created.id, { require_viewer_token: false });
  assert.is(await status(shared), 200);

  // What is bought through the shared address is logged unsigned, bytes and all.
  const log = readFileSync(dataPaths(app.dataDir).cdnLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { path: string; status: number; bytes: number });
  const sig = /^https?:\/\/[^/]+\/([^/]+)\//.exec(shared)?.[1] ?? '';
  assert.not.ok(
    log.some((l) => l.path.includes(sig)),
    'no signature in the CDN log',
  );
  assert.ok(log.some((l) => l.path === `/${created.id}/source.m3u8` && l.status === 200 && l.bytes > 0));

  // A lost write heals from the database (at start, and every few seconds): closed again, marker gone.
  await patchPlayer(created.id, { enabled: false });
  rmSync(join(dataPaths(app.dataDir).publicRefused, created.id));
  await waitFor('the marker made again', async () => (await status(shared)) === 403, 2 * REFUSALS_EVERY_MS);
  await patchPlayer(created.id, { enabled: true });
});

test('X-Playlist-Age and its CORS exposure only on served playlists: not on a forged signature, a closed player or a missing rendition', async () => {
  const live = (await app.call('GET', '/v1/streams?limit=1', { key })).body.data[0];
  assert.is(live.status, 'live');
  const media = live.playback_url.replace('master.m3u8', 'source.m3u8');
  const served = await fetch(media);
  assert.is(served.status, 200);
  assert.match(served.headers.get('x-playlist-age') ?? '', /^\d+\.\d{3}$/);
  assert.is(served.headers.get('access-control-expose-headers'), 'X-Playlist-Age');

  const forged = media.replace(/\/[A-Za-z0-9_-]{22}\./, '/AAAAAAAAAAAAAAAAAAAAAA.');
  const missing = live.playback_url.replace('master.m3u8', '720p.m3u8');
  // The embed read caches a stream for a second: the last test reopened its player just now.
  const shared = (await waitFor('the reopened embed read', () => embedUrl(live.id))).replace(
    'master.m3u8',
    'source.m3u8',
  );
  await patchPlayer(live.id, { enabled: false });
  for (const [url, expected] of [
    [forged, 403],
    [shared, 403],
    [missing, 404],
  ] as const) {
    const res = await fetch(url);
    assert.is(res.status, expected, url);
    assert.is(res.headers.get('x-playlist-age'), null, url);
    assert.is(res.headers.get('access-control-expose-headers'), null, url);
    assert.is(res.headers.get('access-control-allow-origin'), '*', 'errors stay readable across origins');
  }
  await patchPlayer(live.id, { enabled: true });
});

test.run();
