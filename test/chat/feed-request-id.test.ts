import { request } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { FeedReader } from '../helpers/chat.js';

/**
 * X-Request-Id on the responses that do not come from a Fastify reply sent the usual way,
 * through the real appliance: the chat feed (hijacked for server-sent events) through nginx on
 * the API port and on the player site, and what nginx answers itself on both ports.
 */
interface Ctx {
  app: TestAppliance;
  streamId: string;
}
const t = suite<Ctx>('chat feed and nginx answers: X-Request-Id');

t.before(async (ctx) => {
  // One API worker, so that the API port is nginx's too (without workers the API listens itself).
  ctx.app = await startTestAppliance({ api_workers: 1 });
  const account = await ctx.app.newAccount();
  const created = await ctx.app.call('POST', '/v1/streams', { key: account.key, body: { name: 'Request ids' } });
  assert.is(created.status, 201, created.text);
  ctx.streamId = created.body.id;
});
t.after(async (ctx) => {
  await ctx.app?.close();
});

const REQUEST_ID = /^req_[a-z0-9]+$/;

t('the chat feed carries X-Request-Id on the API port and through the player site', async ({ app, streamId }) => {
  const { base_url, player_url } = app.config.publicUrls;
  for (const url of [`${base_url}/v1/embed/${streamId}/chat/feed`, `${player_url}/api/embed/${streamId}/chat/feed`]) {
    const reader = await FeedReader.open(url);
    try {
      assert.is(reader.status, 200, url);
      assert.match(String(reader.headers['content-type']), /^text\/event-stream/, url);
      assert.match(String(reader.headers['x-request-id']), REQUEST_ID, `${url}: ${JSON.stringify(reader.headers)}`);
    } finally {
      reader.close();
    }
  }
});

/** A GET that reads only the status and headers. */
function headers(url: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, headers: res.headers });
    });
    req.on('error', reject);
    req.end();
  });
}

t(
  'the player site, the API port and WHIP: every answer has an X-Request-Id, nginx’s own too',
  async ({ app, streamId }) => {
    const { base_url, player_url, whip_url } = app.config.publicUrls;
    const urls = [
      `${player_url}/${streamId}`,
      `${player_url}/healthz`,
      `${player_url}/no/such/page`,
      `${player_url}/api/embed/${streamId}`,
      `${base_url}/healthz`,
      `${base_url}/player/${streamId}`,
      `${base_url}/no/such/route`,
      `${whip_url}/${streamId}`,
    ];
    const missing: string[] = [];
    for (const url of urls) {
      const res = await headers(url);
      if (!REQUEST_ID.test(String(res.headers['x-request-id']))) missing.push(`${url} (${res.status})`);
    }
    assert.equal(missing, []);
  },
);

t(
  'a body nginx refuses (over 1 MB) is the API’s 400 invalid_request with X-Request-Id, not nginx’s HTML 413',
  async ({ app }) => {
    const res = await fetch(`${app.config.publicUrls.base_url}/v1/streams`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x'.repeat(2_000_000) }),
    });
    const body = await res.json().catch(() => null);
    assert.is(res.status, 400);
    assert.is(body?.error?.code, 'invalid_request');
    assert.match(String(res.headers.get('x-request-id')), REQUEST_ID);
    assert.is(body.error.request_id, res.headers.get('x-request-id'));
  },
);

t.run();
