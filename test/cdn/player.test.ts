import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance } from '../helpers/appliance.js';
import { launchChromium } from '../helpers/browser.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { startStandInCdn } from '../helpers/stand-in-cdn.js';
import { viewerToken } from '../helpers/viewer-tokens.js';

/**
 * The hosted player (hls.js in Debian's Chromium) on a members-only stream, through the stand-in
 * CDN in the query token form: it plays, and each renewal of the personal address moves every
 * later playlist and segment request to the new token without a stall. Personal addresses last
 * 20 s here (renewed every ~12 s).
 */
test('the hosted player through a CDN: query tokens play, renewals move every request to the new token', async () => {
  const cdnPort = await freePort();
  const app = await startTestAppliance({
    cdn: { token_form: 'query' },
    public_urls: { cdn_url: `http://127.0.0.1:${cdnPort}` },
    viewers: { personal_playback_seconds: 20 },
  });
  const { credential } = await app.running.api.edges.add({ name: 'standin', kind: 'cdn' });
  const cdn = await startStandInCdn({
    origin: `127.0.0.1:${app.config.ports.cdn}`,
    credential: credential ?? '',
    port: cdnPort,
  });
  const browser = await launchChromium();
  const account = await app.newAccount({ trusted: true });
  const created = await app.call('POST', '/v1/streams', {
    key: account.key,
    body: { profile: 'passthrough', player: { require_viewer_token: true } },
  });
  assert.is(created.status, 201, created.text);
  const publisher = publish(
    app.rtmpUrl(created.body.stream_key),
    await makeClip({ width: 320, height: 180, seconds: 20 }),
    { loop: true },
  );
  try {
    const viewerKey = await app.accounts.createViewerKey(account.id);
    await waitFor(
      'the stream live',
      async () =>
        (await app.call('GET', `/v1/streams/${created.body.id}`, { key: account.key })).body.status === 'live',
      30_000,
    );
    const page = await browser.newPage();
    const requests: { at: number; url: string }[] = [];
    const renewals: { at: number; url: string }[] = [];
    const waits: number[] = [];
    page.on('request', (r) => requests.push({ at: Date.now(), url: r.url() }));
    page.on('response', (res) => {
      if (res.request().method() !== 'POST' || !/\/playback$/.test(new URL(res.url()).pathname)) return;
      const at = Date.now();
      void res.json().then((body: { url?: string }) => body.url && renewals.push({ at, url: body.url }));
    });
    await page.exposeFunction('svcWaiting', () => waits.push(Date.now()));
    await page.addInitScript(() =>
      document.addEventListener('waiting', () => (window as unknown as { svcWaiting: () => void }).svcWaiting(), true),
    );
    const token = await viewerToken(viewerKey, new Date(), { sub: 'member-1', name: 'Ada' });
    await page.goto(`${created.body.embed_url}#vt=${token}`);
    await page.waitForSelector('#svc-player[data-state="playing"]', { timeout: 40_000 });
    const playingAt = Date.now();
    const done = await waitFor('two renewals', async () => renewals.length >= 2 && renewals.slice(0, 2), 45_000, 250);
    // A piece (4 s) and more: requests under the second renewal.
    await page.waitForTimeout(6000);

    const svcOf = (url: string) => new URL(url).searchParams.get('svc');
    const media = requests.filter((r) => r.url.startsWith(cdn.url) && /\.(m3u8|ts)\?/.test(r.url));
    assert.ok(media.length > 0, 'media from the CDN, every request with its token');
    for (const r of requests.filter((q) => q.url.startsWith(cdn.url) && !q.url.includes('/_thumb/')))
      assert.match(r.url, /\?svc=[A-Za-z0-9_-]{22}\.[0-9]{10}\.vsn_[a-z0-9]{20}$/);
    for (const [i, renewal] of done.entries()) {
      const until = done[i + 1]?.at ?? Infinity;
      const later = media.filter((r) => r.at > renewal.at + 200 && r.at < until);
      assert.ok(
        later.length > 0,
        `requests after the renewal: renewals at ${done.map((d) => d.at - playingAt).join(', ')}; media at ${media.map((m) => m.at - playingAt).join(', ')}`,
      );
      for (const r of later) assert.is(svcOf(r.url), svcOf(renewal.url), r.url);
    }
    assert.equal(
      waits.filter((at) => at > playingAt),
      [],
      `no stall once playing: stalls at +${waits.map((w) => w - playingAt).join(', ')} ms, renewals at +${done.map((d) => d.at - playingAt).join(', ')} ms`,
    );
    assert.is(await page.getAttribute('#svc-player', 'data-state'), 'playing');
  } finally {
    await publisher.kill();
    await browser.close();
    await cdn.close();
    await app.close();
  }
});

test.run();
