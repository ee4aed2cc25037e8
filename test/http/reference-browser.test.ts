/**
 * The interactive reference (`GET /reference/`) in Debian's Chromium: it renders the operations
 * and the webhook events, and every request the page makes goes to the appliance's own origin.
 * A screenshot goes to test-output/reference/.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchChromium, outputDir } from '../helpers/browser.js';
import { createTestApi, type TestApi } from '../helpers/api.js';

const t = suite<{ env: TestApi; browser: Browser; origin: string }>('http: interactive API reference in Chromium');

t.before(async (ctx) => {
  ctx.env = await createTestApi();
  await ctx.env.api.app.listen({ port: 0, host: '127.0.0.1' });
  ctx.origin = `http://127.0.0.1:${(ctx.env.api.app.server.address() as AddressInfo).port}`;
  ctx.browser = await launchChromium();
});
t.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.env?.close();
});

t(
  'GET /reference/ renders every operation and webhook event from bundled assets, asking nothing of another origin',
  async ({ env, browser, origin }) => {
    const page = await browser.newPage();
    const requests: string[] = [];
    const failed: string[] = [];
    const problems: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText ?? ''}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));

    const answer = await page.goto(`${origin}/reference/`);
    assert.is(answer?.status(), 200);
    assert.match(answer?.headers()['content-security-policy'] ?? '', "default-src 'self'");
    await page.waitForSelector('.opblock', { timeout: 30_000 });

    const doc = (await env.call('GET', '/openapi.json')).body as {
      paths: Record<string, object>;
      webhooks: Record<string, object>;
    };
    const described =
      Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0) + Object.keys(doc.webhooks).length;
    // Each operation and each webhook event is one block, collapsed until clicked.
    assert.is(await page.locator('.opblock').count(), described);
    const text = (await page.textContent('#swagger-ui')) ?? '';
    for (const shown of [
      'svc live video API',
      '/v1/streams/{id}',
      'createStream',
      'stream.live',
      'recording.ready',
      'webhook.test',
    ]) {
      assert.ok(text.includes(shown), `the page shows ${shown}`);
    }

    // Open one operation: its example response is the description's.
    await page.click('#operations-Streams-createStream .opblock-summary');
    await page.waitForSelector('#operations-Streams-createStream .responses-wrapper');
    assert.ok(
      ((await page.textContent('#operations-Streams-createStream')) ?? '').includes('str_8f3k2m9q7x1c4v6b0n5z?key='),
      'the create example is shown',
    );
    await page.screenshot({ path: join(outputDir('reference'), 'reference.png'), fullPage: false });

    assert.ok(requests.length >= 5, `${requests.length} requests`);
    const elsewhere = requests.filter((url) => !url.startsWith(`${origin}/`) && !url.startsWith('data:'));
    assert.equal(elsewhere, [], 'every request went to the appliance');
    assert.ok(requests.includes(`${origin}/reference/json`), 'the description came from the appliance');
    assert.equal(failed, []);
    assert.equal(problems, []);
    await page.close();
  },
);

t.run();
