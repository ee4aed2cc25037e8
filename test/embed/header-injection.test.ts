import { connect } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';

/**
 * nginx decodes the path before it matches a location: a stream id holding `%0d%0a` must reach
 * the API still encoded (one id that names no stream: its JSON 404, counted as an unknown id),
 * never as a line break that starts a header of its own. Requests are written by hand, as an
 * attacker would, on the player site and on the API port with API workers.
 */
let app: TestAppliance;
let streamId: string;

test.before(async () => {
  app = await startTestAppliance({ api_workers: 1 });
  const { key } = await app.newAccount();
  streamId = (await app.call('POST', '/v1/streams', { key, body: {} })).body.id;
});
test.after(async () => {
  await app.close();
});

interface RawReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One request as written; the answer parsed just enough (the connection closes after it). */
function raw(port: number, method: string, target: string, headers: string[] = [], body = ''): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const fields = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      let body = rest.join('\r\n\r\n');
      // Chunked answers: the JSON sits between the chunk sizes.
      if (/chunked/i.test(fields['transfer-encoding'] ?? ''))
        body = body
          .split('\r\n')
          .filter((_, i) => i % 2 === 1)
          .join('');
      resolve({ status: Number(statusLine.split(' ')[1]), headers: fields, body });
    });
    const length = body ? [`Content-Type: application/json`, `Content-Length: ${Buffer.byteLength(body)}`] : [];
    socket.write(
      `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${[...headers, ...length].map((h) => `${h}\r\n`).join('')}Connection: close\r\n\r\n${body}`,
    );
  });
}

/** The API's own 404 for a stream id that names no stream: JSON, with its request id. */
function assertApiNotFound(res: RawReply, what: string): void {
  assert.is(res.status, 404, `${what}: ${res.status} ${res.body}`);
  const error = JSON.parse(res.body).error;
  assert.is(error.code, 'not_found', what);
  assert.is(error.message, 'No such stream.', `${what}: the embed route answered, not a missing route`);
  assert.match(error.request_id, /^req_/, what);
  assert.is(res.headers['x-request-id'], error.request_id, what);
}

// What an attacker appends to the id: without the fix, the API reads a header of its own.
const INJECTED = '%0d%0aX-Forwarded-For:%20203.0.113.50%0d%0aX-Injected:%201';

test('the player site passes a stream id with an encoded line break as one unknown id, on every embed path', async () => {
  const port = app.config.ports.player;
  // Each with a valid query or body, so that only the id can be wrong.
  const paths: [string, string, string][] = [
    ['GET', '', ''],
    ['POST', '/beat?s=page-load-1&st=p&u=0.5', ''],
    ['GET', '/chat/messages', ''],
    ['GET', '/chat/feed', ''],
    ['POST', '/chat/reactions', '{"emoji":"🔥"}'],
    ['POST', '/session', '{"viewer_token":"x"}'],
    ['POST', '/playback', '{"session_token":"x"}'],
    ['POST', '/mod/session', '{"moderator_token":"x"}'],
  ];
  for (const [method, suffix, body] of paths) {
    const res = await raw(port, method, `/api/embed/${streamId}${INJECTED}${suffix}`, [], body);
    assertApiNotFound(res, `${method} ${suffix || '(embed read)'}`);
  }
  // The real id still answers.
  assert.is((await raw(port, 'GET', `/api/embed/${streamId}`)).status, 200);
});

test('the API port (API workers): the viewers path passes the id as sent', async () => {
  const res = await raw(app.config.ports.api, 'GET', `/v1/streams/${streamId}${INJECTED}/viewers`, [
    'Authorization: Bearer svc_live_not_a_key',
  ]);
  // The key is checked first: a 401 from the API itself, not a 400 from a broken request line.
  assert.is(res.status, 401, res.body);
  assert.is(JSON.parse(res.body).error.code, 'unauthorized');
});

test('unknown ids with encoded line breaks still count against the 60 per minute of one address', async () => {
  const port = app.config.ports.player;
  let limited: RawReply | null = null;
  for (let i = 0; i < 70 && !limited; i++) {
    const res = await raw(port, 'GET', `/api/embed/str_${String(i).padStart(20, '0')}${INJECTED}`);
    if (res.status === 429) limited = res;
    else assertApiNotFound(res, `unknown id ${i}`);
  }
  assert.ok(limited, 'refused within 70 unknown ids');
  assert.is(JSON.parse(limited.body).error.code, 'rate_limited');
});

test.run();
