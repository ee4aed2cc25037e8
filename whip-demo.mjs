// Demo only (not committed): Chromium publishes a fake 720p camera from the https publish page, then screenshots the dashboard.
import { createHash, createPublicKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
const [publishUrl, dashboardUrl, keyFile, seconds] = process.argv.slice(2);
const spki = createPublicKey(readFileSync(keyFile, 'utf8')).export({ type: 'spki', format: 'der' });
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream',
    '--allow-loopback-in-peer-connection', `--ignore-certificate-errors-spki-list=${createHash('sha256').update(spki).digest('base64')}`],
});
const page = await browser.newPage();
if (publishUrl !== '-') {
  await page.goto(publishUrl);
  await page.waitForSelector('#go:not([disabled])', { timeout: 15000 });
  console.log('secure context:', await page.evaluate(() => window.isSecureContext));
  await page.click('#go');
  await page.waitForSelector('#svc-publish[data-state="live"]', { timeout: 30000 });
  console.log('publish page: live');
  await page.waitForTimeout(Number(seconds) * 1000);
  await page.click('#stop');
  console.log('publish page: stopped');
}
if (dashboardUrl !== '-') {
  const d = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await d.goto(dashboardUrl);
  await d.waitForSelector('[data-part="certificate"]', { timeout: 20000 });
  console.log('dashboard badge:', await d.textContent('[data-part="certificate"]'));
  await d.screenshot({ path: '/tmp/demo/dashboard.png' });
}
await browser.close();
