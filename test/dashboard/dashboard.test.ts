/**
 * The operator dashboard end to end: real appliance (nginx's player site, API, ffmpeg ladder), a
 * live stream published with ffmpeg, a webhook endpoint on a closed loopback port, and Debian's
 * Chromium. Screenshots: test-output/dashboard-*.png.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { packageRoot } from '../../src/core/package-root.js';
import { systemClock } from '../../src/core/clock.js';
import { dashboardUrl, operatorToken } from '../../src/domains/surfaces/dashboard/access.js';
import { rotateAccess } from '../../src/domains/surfaces/dashboard/queries.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { launchChromium } from '../helpers/browser.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { insertOutput } from '../helpers/rtmp-receiver.js';

const t = suite<{ app: TestAppliance; browser: Browser; publisher?: Publisher }>('operator dashboard in Chromium');

const shot = (name: string) => {
  const dir = join(packageRoot, 'test-output');
  mkdirSync(dir, { recursive: true });
  return join(dir, `dashboard-${name}.png`);
};

t.before(async (ctx) => {
  ctx.app = await startTestAppliance({ allow_private_webhooks: true, live: { thumbnail_seconds: 2 } });
  ctx.browser = await launchChromium();
});
t.after(async (ctx) => {
  await ctx.publisher?.kill();
  await ctx.browser?.close();
  await ctx.app?.close();
});

const token = (app: TestAppliance, generation = 1) => operatorToken(app.secrets.signing_key, generation);
const attr = (page: Page, selector: string, name: string) => page.getAttribute(selector, name);
/** The dashboard's data through nginx's player site, as the page reads it. */
const read = (app: TestAppliance, path: string, authorization?: string) =>
  fetch(`${app.config.publicUrls.player_url}/dashboard/api${path}`, {
    headers: authorization ? { authorization } : {},
  });

t(
  'during a live stream: the stream with its ingest chart and outputs, a balance, a failing webhook endpoint, health',
  async ({ app, browser, ...ctx }) => {
    const account = await app.accounts.create({ name: 'Acme Live', trusted: true, creditUsd: '42.50' });
    const { key } = await app.accounts.createApiKey(account.id);
    // Nobody listens on this port: every delivery fails and is retried.
    const closed = await freePort();
    const endpoint = await app.call('POST', '/v1/webhooks', { key, body: { url: `http://127.0.0.1:${closed}/hooks` } });
    assert.is(endpoint.status, 201, endpoint.text);
    assert.is((await app.call('POST', `/v1/webhooks/${endpoint.body.id}/test`, { key })).status, 202);

    const created = await app.call('POST', '/v1/streams', {
      key,
      body: { name: 'Dashboard check', max_resolution: 720 },
    });
    assert.is(created.status, 201, created.text);
    const s = created.body;
    ctx.publisher = publish(app.rtmpUrl(s.stream_key), await makeClip({ width: 1280, height: 720, seconds: 20 }), {
      loop: true,
    });
    await waitFor(
      'the stream live',
      async () => (await app.call('GET', `/v1/streams/${s.id}`, { key })).body.status === 'live',
      30_000,
    );

    // Two restreaming outputs: one to loopback, which this appliance refuses (no allow_private_outputs),
    // so its push errors with the reason; one disabled. Their keys are never shown.
    const outputKeys = ['dash-output-key-XQZW', 'dash-backup-key-KVYR'];
    const refused = await insertOutput(app.db.sql, {
      streamId: s.id,
      accountId: account.id,
      url: `rtmp://127.0.0.1:${closed}/live`,
      key: outputKeys[0]!,
    });
    const backup = await insertOutput(app.db.sql, {
      streamId: s.id,
      accountId: account.id,
      url: 'rtmp://backup.example.com/live',
      key: outputKeys[1]!,
      name: 'Backup',
      enabled: false,
    });

    // One viewer on the hosted player: the dashboard counts them.
    const viewer = await browser.newPage();
    await viewer.goto(s.embed_url);
    await viewer.waitForSelector('#svc-player[data-state="playing"]', { timeout: 45_000 });

    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(dashboardUrl(app.config.publicUrls.player_url, token(app)));
    await page.waitForSelector('#dash[data-state="ready"]', { timeout: 15_000 });
    // The token left the address bar at once (it was only ever in the fragment).
    assert.not.match(page.url(), 'token');
    assert.is(page.url(), `${app.config.publicUrls.player_url}/dashboard`);

    // The live stream, with its ingest and a still.
    const row = `#streams tr[data-stream-id="${s.id}"]`;
    await page.waitForSelector(`${row}[data-status="live"]`, { timeout: 15_000 });
    assert.match((await page.textContent(row)) ?? '', 'Dashboard check');
    assert.match((await page.textContent(row)) ?? '', 'Acme Live');
    await page.waitForFunction((sel) => /\d+ kbps/.test(document.querySelector(sel)?.textContent ?? ''), row, {
      timeout: 30_000,
    });
    await page.waitForSelector(`${row} img`, { timeout: 30_000 });
    // The ingest chart is the live stream's (selected first) and has points: a sample every 10 s.
    assert.is(await page.textContent('#detail-title'), 'Dashboard check');
    await page.waitForFunction(
      () => Number(document.querySelector('#ingest-chart')?.getAttribute('data-points')) >= 2,
      undefined,
      { timeout: 60_000 },
    );
    assert.ok(await page.$('#ingest-chart canvas'), 'uPlot drew the ingest chart');
    await page.waitForFunction((sel) => document.querySelector(`${sel} td:last-child`)?.textContent === '1', row, {
      timeout: 30_000,
    });
    assert.ok(Number(await attr(page, '#viewers-chart', 'data-points')) >= 1);
    const series = await (await read(app, `/streams/${s.id}/series`, `Bearer ${token(app)}`)).json();
    assert.is(series.viewers_now, 1);
    assert.ok(series.ingest.length >= 2, JSON.stringify(series));
    assert.ok(series.ingest.every((p: { kbps: number | null }) => p.kbps === null || p.kbps > 0));

    // The outputs under the stream's row: the refused one marked errored with its reason, the disabled one.
    const outputs = `#streams tr[data-outputs-of="${s.id}"]`;
    await page.waitForSelector(`${outputs} li[data-output-id="${refused}"][data-status="errored"]`, {
      timeout: 30_000,
    });
    const refusedItem = `${outputs} li[data-output-id="${refused}"]`;
    assert.is(await attr(page, refusedItem, 'class'), 'errored');
    const refusedText = (await page.textContent(refusedItem)) ?? '';
    assert.match(refusedText, `rtmp://127.0.0.1:${closed}/live`);
    assert.match(refusedText, /errored.*host 127\.0\.0\.1 is not a public address/);
    assert.match(
      (await page.textContent(`${outputs} li[data-output-id="${backup}"]`)) ?? '',
      /Backup.*disabled.*0 B sent/,
    );
    const overview = await (await read(app, '/overview', `Bearer ${token(app)}`)).text();
    const listed = (
      JSON.parse(overview).streams as {
        id: string;
        outputs: { id: string; status: string; last_error: string | null }[];
      }[]
    ).find((x) => x.id === s.id)?.outputs;
    assert.equal(
      listed?.map((o) => [o.id, o.status, o.last_error !== null]),
      [
        [refused, 'errored', true],
        [backup, 'idle', false],
      ],
    );
    for (const k of outputKeys) {
      assert.not.ok(overview.includes(k.slice(-4)), `the key ${k} in the overview`);
      assert.not.ok((await page.content()).includes(k.slice(-4)), `the key ${k} on the page`);
    }

    // The account with its balance.
    const accountRow = `#accounts tr[data-account-id="${account.id}"]`;
    assert.match((await page.textContent(accountRow)) ?? '', 'Acme Live');
    const balance = (await page.textContent(`${accountRow} .balance`)) ?? '';
    // Money as the API gives it: at least cents, up to the ledger's six decimals once metering charged.
    assert.match(balance, /^\d+\.\d{2,6}$/);
    assert.ok(Number(balance) <= 42.5 && Number(balance) > 40, balance);

    // The endpoint on the closed port is failing.
    const endpointRow = `#webhooks tr[data-endpoint-id="${endpoint.body.id}"]`;
    await page.waitForSelector(`${endpointRow}[data-failing="true"]`, { timeout: 30_000 });
    assert.match((await page.textContent(endpointRow)) ?? '', `127.0.0.1:${closed}`);

    // Health: the parts /healthz reports, and the jobs with their last success and lag.
    assert.is(await attr(page, '#parts [data-part="database"]', 'data-up'), 'true');
    assert.is(await attr(page, '#parts [data-part="ingest"]', 'data-up'), 'true');
    assert.ok(await page.$('#jobs tr[data-job="metering"]'), 'the metering job is listed');
    await page.screenshot({ path: shot('live'), fullPage: true });
    await (await page.$('#detail'))?.screenshot({ path: shot('live-charts') });

    // A reload keeps working without the fragment (the token stayed in this tab), and nothing broke the CSP.
    await page.reload();
    await page.waitForSelector('#dash[data-state="ready"]', { timeout: 15_000 });
    await page.waitForSelector(`${row}[data-status="live"]`, { timeout: 15_000 });
    assert.equal(violations, []);
    await page.close();
    await viewer.close();
  },
);

t('a wrong, missing or rotated token: refused with no data', async ({ app, browser }) => {
  for (const authorization of [
    undefined,
    'Bearer svcop_wrong',
    `Bearer ${token(app, 2)}`,
    'Bearer svc_live_notanoperatortoken',
  ]) {
    const res = await read(app, '/overview', authorization);
    assert.is(res.status, 401, String(authorization));
    const body = await res.json();
    assert.equal(Object.keys(body), ['error']);
    assert.is(body.error.code, 'unauthorized');
  }
  // Even whether a stream exists stays hidden without the token.
  assert.is((await read(app, '/streams/str_aaaaaaaaaaaaaaaaaaaa/series')).status, 401);
  assert.is((await read(app, '/streams/str_aaaaaaaaaaaaaaaaaaaa/series', `Bearer ${token(app)}`)).status, 404);
  assert.is((await read(app, '/streams/nope/series', `Bearer ${token(app)}`)).status, 400);

  const page = await browser.newPage({ viewport: { width: 1280, height: 600 } });
  await page.goto(dashboardUrl(app.config.publicUrls.player_url, 'svcop_wrong'));
  await page.waitForSelector('#dash[data-state="refused"]', { timeout: 15_000 });
  assert.is(await page.isVisible('#refused'), true);
  assert.is(await page.$$eval('#streams tbody tr, #accounts tbody tr, #webhooks tbody tr', (rows) => rows.length), 0);
  assert.is(await page.isVisible('#streams-section'), false);
  await page.screenshot({ path: shot('refused') });

  await page.close();

  // An open dashboard with the right token is refused once the token is rotated.
  const open = await browser.newPage({ viewport: { width: 1280, height: 600 } });
  await open.goto(dashboardUrl(app.config.publicUrls.player_url, token(app)));
  await open.waitForSelector('#dash[data-state="ready"]', { timeout: 15_000 });
  const rotated = await rotateAccess(app.db.sql, systemClock.now());
  assert.is(rotated.generation, 2);
  await open.waitForSelector('#dash[data-state="refused"]', { timeout: 20_000 });
  assert.is((await read(app, '/overview', `Bearer ${token(app)}`)).status, 401);
  assert.is((await read(app, '/overview', `Bearer ${token(app, 2)}`)).status, 200);
  await open.close();
});

t.run();
