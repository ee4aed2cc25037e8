import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hookToken } from '../../src/domains/engine/live/hooks.routes.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';

/**
 * nginx-rtmp's publish hooks are believed by the socket's real peer, never by a header: through
 * the API port (nginx, with API workers) they are a 404 for everyone, a client on another address
 * is refused even when it claims loopback in X-Forwarded-For, and the real publish flow works
 * whether the appliance listens on every address or on one (nginx then calls from that one).
 */

/** An address of this machine that is not loopback (traffic to it stays on the machine). */
function ownAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;
  if (!address) throw new Error('this test needs a non-loopback IPv4 address on the machine (any interface)');
  return address;
}

/** A hook call as a stranger would make it: from `from`, claiming loopback, with the stream's own key. */
function callHook(
  app: TestAppliance,
  path: string,
  form: Record<string, string>,
  from: string,
  to = from,
): Promise<{ status: number; body: string; requestId: string | undefined }> {
  const body = new URLSearchParams(form).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: to,
        port: app.config.ports.api,
        localAddress: from,
        method: 'POST',
        path: `/internal/ingest/${hookToken(app.secrets.signing_key)}/${path}`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'x-forwarded-for': '127.0.0.1',
          'x-real-ip': '127.0.0.1',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text,
            requestId: res.headers['x-request-id'] as string | undefined,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function pendingStream(
  app: TestAppliance,
  key: string,
): Promise<{ id: string; stream_key: string; name: string }> {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  const name = created.stream_key.split('?')[0];
  return { ...created, name };
}

const statusOf = async (app: TestAppliance, key: string, id: string): Promise<string> =>
  (await app.call('GET', `/v1/streams/${id}`, { key })).body.status;

/** A real publisher makes the stream live (nginx's hooks are admitted), then leaves. */
async function publishGoesLive(app: TestAppliance, key: string): Promise<void> {
  const clip = await makeClip({ width: 426, height: 240, seconds: 12, gopSeconds: 1 });
  const s = await pendingStream(app, key);
  const p = publish(app.rtmpUrl(s.stream_key), clip, { loop: true });
  try {
    await waitFor('live', async () => (await statusOf(app, key, s.id)) === 'live', 20_000);
  } finally {
    await p.kill();
  }
}

test('API workers: the API port answers /internal/ with a 404 for every client, claimed loopback or not; publishing works', async () => {
  const app = await startTestAppliance({ api_workers: 2, listen_host: '0.0.0.0' });
  try {
    const { key } = await app.newAccount();
    const s = await pendingStream(app, key);
    const form = {
      call: 'publish',
      name: s.name,
      key: new URLSearchParams(s.stream_key.split('?')[1]).get('key') ?? '',
      clientid: '1',
      addr: '203.0.113.9',
    };
    for (const from of ['127.0.0.1', ownAddress()]) {
      const res = await callHook(app, 'publish', form, from);
      assert.is(res.status, 404, `${from}: ${res.body}`);
      const error = JSON.parse(res.body).error;
      assert.is(error.code, 'not_found');
      assert.match(error.request_id, /^req_/);
      assert.is(res.requestId, error.request_id);
    }
    assert.is(await statusOf(app, key, s.id), 'pending', 'nobody made the stream live through the API port');
    await publishGoesLive(app, key);
  } finally {
    await app.close();
  }
});

test('the API on every address: a hook call from another address is refused, X-Forwarded-For: 127.0.0.1 or not', async () => {
  const app = await startTestAppliance({ listen_host: '0.0.0.0' });
  try {
    const { key } = await app.newAccount();
    const s = await pendingStream(app, key);
    const form = {
      call: 'publish',
      name: s.name,
      key: new URLSearchParams(s.stream_key.split('?')[1]).get('key') ?? '',
      clientid: '1',
      addr: '203.0.113.9',
    };
    const from = ownAddress();
    assert.is((await callHook(app, 'publish', form, from)).status, 403);
    assert.is((await callHook(app, 'publish_done', form, from)).status, 403);
    assert.is(await statusOf(app, key, s.id), 'pending');
  } finally {
    await app.close();
  }
});

test('the appliance on one address that is not loopback: nginx calls its hooks from there, and publishing works', async () => {
  const address = ownAddress();
  const app = await startTestAppliance({ host: address, listen_host: address });
  try {
    const { key } = await app.newAccount();
    await publishGoesLive(app, key);
  } finally {
    await app.close();
  }
});

test.run();
