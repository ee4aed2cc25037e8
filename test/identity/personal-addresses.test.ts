import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { CdnAddresses, cdnSecret } from '../../src/domains/ledger/cdn/addresses.js';
import { startTestAppliance } from '../helpers/appliance.js';
import { viewerToken } from '../helpers/viewer-tokens.js';

/**
 * The real nginx checks a member's personal address: the signature covers the viewer session,
 * so the address works for that session's path until it runs out and nowhere else; the player
 * site proxies sessions and renewals uncached; the CDN log keeps neither signature nor session.
 */
test('personal addresses: served until they run out, only for their session; sessions through the player site', async () => {
  const app = await startTestAppliance();
  try {
    const { id: accountId, key } = await app.newAccount();
    const created = await app.accounts.createViewerKey(accountId);
    const stream = (await app.call('POST', '/v1/streams', { key, body: { player: { require_viewer_token: true } } }))
      .body;
    // A playlist in the stream's origin folder, as the uploader would leave it.
    const folder = join(dataPaths(app.dataDir).origin, stream.id);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'master.m3u8'), '#EXTM3U\n');

    const sessionAt = (token: string) =>
      fetch(`${app.config.publicUrls.player_url}/api/embed/${stream.id}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ viewer_token: token }),
      });
    const first = await sessionAt(await viewerToken(created, new Date(), { sub: 'pupil-1' }));
    assert.is(first.status, 200);
    const a = await first.json();
    const b = await (await sessionAt(await viewerToken(created, new Date(), { sub: 'pupil-2' }))).json();
    assert.is((await fetch(a.playback.url)).status, 200);
    assert.is((await fetch(b.playback.url)).status, 200);

    // Renewed through the player site (never cached: each answer is personal).
    const renewAt = (sessionToken: string) =>
      fetch(`${app.config.publicUrls.player_url}/api/embed/${stream.id}/playback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ session_token: sessionToken }),
      });
    const renewed = await renewAt(a.session_token);
    assert.is(renewed.status, 200);
    assert.is(renewed.headers.get('x-cache'), null);
    assert.is((await fetch((await renewed.json()).url)).status, 200);

    // One session's signature on another session's path, or on the shared path: refused.
    const [, sigA] = /^https?:\/\/[^/]+\/([^/]+)\//.exec(a.playback.url) ?? [];
    const swapped = b.playback.url.replace(/^(https?:\/\/[^/]+\/)[^/]+\//, `$1${sigA}/`);
    assert.is((await fetch(swapped)).status, 403);
    assert.is((await fetch(a.playback.url.replace(`/${a.id}/`, '/'))).status, 403);
    // A valid signature whose time is over: refused (what a copied address becomes after five minutes).
    const cdn = new CdnAddresses(app.config.publicUrls.cdn_url, cdnSecret(app.secrets.signing_key));
    assert.is((await fetch(cdn.personalPlayback(stream.id, a.id, new Date(Date.now() + 60_000)))).status, 200);
    assert.is((await fetch(cdn.personalPlayback(stream.id, a.id, new Date(Date.now() - 1000)))).status, 403);

    const log = readFileSync(dataPaths(app.dataDir).cdnLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { path: string; status: number });
    const personal = log.filter((l) => l.path.includes(stream.id));
    assert.ok(personal.length >= 5);
    for (const line of personal) assert.is(line.path, `/${stream.id}/master.m3u8`, JSON.stringify(line));
  } finally {
    await app.close();
  }
});

test.run();
