/**
 * Chromium against the appliance with TLS on, names resolved to 127.0.0.1 and only the test CA's
 * certificate trusted: the hosted player embedded in an https page of another origin plays (no
 * request leaves https, so no mixed content), and the publish page on https goes live over WHIP
 * with the browser's camera (browsers give the camera to secure pages only).
 */
import { createHash, createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { withPublishUrl } from '../../src/cli/streams.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { launchChromium } from '../helpers/browser.js';
import { testCertificate, type TestCertificate } from '../helpers/certificates.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

const DOMAIN = 'live.svc.test';
const PLAYER = 'watch.svc.test';
const CUSTOMER = 'customer.svc.test';

interface Ctx {
  app: TestAppliance;
  cert: TestCertificate;
  certDir: string;
  browser: Browser;
  site: Server;
  sitePort: number;
  key: string;
  publisher?: Publisher;
}
const t = suite<Ctx>('Chromium over https');

t.before(async (ctx) => {
  ctx.cert = await testCertificate([DOMAIN, PLAYER, CUSTOMER]);
  ctx.certDir = mkdtempSync(join(tmpdir(), 'svc-test-browser-cert-'));
  writeFileSync(join(ctx.certDir, 'chain.pem'), ctx.cert.chainPem);
  writeFileSync(join(ctx.certDir, 'key.pem'), ctx.cert.keyPem, { mode: 0o600 });
  ctx.app = await startTestAppliance({
    listen_host: '127.0.0.1',
    tls: {
      domain: DOMAIN,
      player_domain: PLAYER,
      certificate_file: join(ctx.certDir, 'chain.pem'),
      key_file: join(ctx.certDir, 'key.pem'),
      https_port: await freePort(),
      http_port: await freePort(),
      rtmps_port: await freePort(),
    },
  });
  ctx.key = (await ctx.app.newAccount({ trusted: true })).key;
  // Chromium trusts exactly this key (Playwright gives it a user data dir, which the flag needs).
  const spki = createPublicKey(ctx.cert.keyPem).export({ type: 'spki', format: 'der' });
  ctx.browser = await launchChromium([
    `--host-resolver-rules=MAP *.svc.test 127.0.0.1`,
    `--ignore-certificate-errors-spki-list=${createHash('sha256').update(spki).digest('base64')}`,
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--allow-loopback-in-peer-connection',
  ]);
  ctx.sitePort = await freePort();
  ctx.site = createServer({ key: ctx.cert.keyPem, cert: ctx.cert.chainPem });
  await new Promise<void>((resolve) => ctx.site.listen(ctx.sitePort, '127.0.0.1', resolve));
});

t.after(async (ctx) => {
  await ctx.publisher?.kill();
  await ctx.browser?.close();
  await new Promise((r) => ctx.site?.close(r));
  await ctx.app?.close();
  rmSync(ctx.certDir, { recursive: true, force: true });
});

t("the player embedded in another origin's https page plays; nothing it loads is http", async (ctx) => {
  const created = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: { max_resolution: 480 } });
  assert.is(created.status, 201, created.text);
  const s = created.body;
  assert.ok(s.embed_url.startsWith(`https://${PLAYER}`), s.embed_url);
  ctx.site.on('request', (_req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(`<!doctype html><title>Customer</title><iframe src="${s.embed_url}" allow="autoplay; fullscreen"></iframe>`),
  );
  const clip = await makeClip({ width: 426, height: 240, seconds: 12, gopSeconds: 1 });
  ctx.publisher = publish(
    ctx.app.rtmpUrl(s.stream_key).replace(/^rtmps:\/\/[^/]+/, `rtmp://127.0.0.1:${ctx.app.config.ports.rtmp}`),
    clip,
    {
      loop: true,
    },
  );
  const page = await ctx.browser.newPage();
  const plain: string[] = [];
  page.on('request', (req) => {
    if (req.url().startsWith('http:')) plain.push(req.url());
  });
  const blocked: string[] = [];
  page.on('console', (msg) => {
    if (/mixed content/i.test(msg.text())) blocked.push(msg.text());
  });
  await page.goto(`https://${CUSTOMER}:${ctx.sitePort}/`);
  const frame = await waitFor('the player frame', async () =>
    page.frames().find((f) => f.url().startsWith(s.embed_url)),
  );
  await frame.waitForSelector('#svc-player[data-state="playing"]', { timeout: 45_000 });
  const before = await frame.evaluate(() => document.querySelector('video')!.currentTime);
  await page.waitForTimeout(2500);
  const after = await frame.evaluate(() => document.querySelector('video')!.currentTime);
  assert.ok(after - before > 1, `currentTime advanced ${after - before} s`);
  assert.equal(plain, [], 'every request is https');
  assert.equal(blocked, []);
  await ctx.publisher.kill();
});

t('the publish page on https goes live over WHIP with the camera', async (ctx) => {
  const created = withPublishUrl(
    (await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: { max_resolution: 480 } })).body,
  );
  const url = created.publish_url as string;
  assert.ok(url.startsWith(`https://${PLAYER}:`), url);
  const page = await ctx.browser.newPage();
  await page.goto(url);
  await page.waitForSelector('#go:not([disabled])', { timeout: 15_000 });
  assert.ok(await page.evaluate(() => window.isSecureContext), 'a secure context: the camera is allowed');
  await page.click('#go');
  await page.waitForSelector('#svc-publish[data-state="live"]', { timeout: 30_000 });
  const live = await waitFor('live over WHIP', async () => {
    const r = await ctx.app.call('GET', `/v1/streams/${created.id}`, { key: ctx.key });
    return r.body.status === 'live' && r.body;
  });
  assert.ok(live.went_live_at);
  const row = await ctx.app.db.sql`select ingest_relay from streams where id = ${created.id}`;
  assert.is(row[0]?.ingest_relay, 'whip');
  await page.click('#stop');
});

t.run();
