import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readEdgeSecrets } from '../../src/config/edge.js';
import { edgeStatus } from '../../src/operator/edge-status.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { fetchLocal, testCertificate } from '../helpers/certificates.js';
import { startTestEdge, type TestEdge } from '../helpers/edge.js';
import { startPebble, type Pebble } from '../helpers/pebble.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';

/**
 * Edges serving viewers over https (docs/decisions.md, "Edges over https"), joined to a real origin
 * on loopback, with real nginx: the operator's certificate files, and certificates from a real ACME
 * CA (Pebble) for one name shared by two edges, where the CA's fetch reaches the edge that did not
 * order.
 */
const NAME = 'cdn.svc.test';

test('operator files: signed addresses over https, a forged one refused, plain http redirected, the certificate in svc edge status', async () => {
  const app = await startTestAppliance({ live: { segment_seconds: 1, window_segments: 3 } });
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-edge-cert-'));
  let edge: TestEdge | null = null;
  const publisher: { stop?: () => Promise<unknown> } = {};
  try {
    const cert = await testCertificate([NAME]);
    writeFileSync(join(dir, 'cdn.pem'), cert.chainPem);
    writeFileSync(join(dir, 'cdn.key'), cert.keyPem, { mode: 0o600 });
    const [httpsPort, httpPort] = [await freePort(), await freePort()];
    edge = await startTestEdge(app, {
      name: 'edge-files',
      tls: {
        domain: NAME,
        certificate_file: join(dir, 'cdn.pem'),
        key_file: join(dir, 'cdn.key'),
        https_port: httpsPort,
        http_port: httpPort,
      },
    });
    const e = edge;
    const { key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', { key, body: { profile: 'passthrough' } });
    assert.is(created.status, 201, created.text);
    const id: string = created.body.id;
    const running = publish(
      app.rtmpUrl(created.body.stream_key),
      await makeClip({ width: 320, height: 240, seconds: 4, gopSeconds: 1 }),
      { loop: true },
    );
    publisher.stop = () => running.kill();

    const onEdge = (url: string) => url.replace(app.config.publicUrls.cdn_url, `https://${NAME}:${httpsPort}`);
    const playback = await waitFor(
      'the master playlist over https through the edge',
      async () => {
        const s = await streamOf(app, key, id);
        if (s.status !== 'live' || !s.playback_url) return null;
        const res = await fetchLocal(onEdge(s.playback_url), { caPem: cert.caPem });
        return res.status === 200 && res.text.includes('#EXTM3U') ? onEdge(s.playback_url) : null;
      },
      60_000,
    );

    const signature = (/^https:\/\/[^/]+\/([^/]+)\//.exec(playback) as RegExpExecArray)[1] as string;
    const forged = playback.replace(signature, `${'A'.repeat(22)}${signature.slice(22)}`);
    assert.is((await fetchLocal(forged, { caPem: cert.caPem })).status, 403, 'a forged signature over https');

    // Plain http, on the viewer port and the http port: a redirect to the same address over https.
    const path = new URL(playback).pathname;
    for (const port of [e.config.cdnPort, httpPort]) {
      const plain = await fetchLocal(`http://${NAME}:${port}${path}`);
      assert.is(plain.status, 301, `plain http on ${port}`);
      assert.is(plain.headers.location, `https://${NAME}:${httpsPort}${path}`);
    }
    // A token nobody is solving: the edge asked the origin, which knows none.
    assert.is((await fetchLocal(`http://${NAME}:${httpPort}/.well-known/acme-challenge/nobody`)).status, 404);
    // One put at the origin by an edge is answered by this edge; the origin's routes refuse bad input.
    const credential = readEdgeSecrets(e.dataDir).credential;
    const put = (token: string, body: unknown, key?: string) =>
      app.call('PUT', `/edge/v1/acme-challenge/${token}`, { body, ...(key ? { key } : {}) });
    assert.is((await put('tok_1', { key_authorization: 'tok_1.thumb' }, credential)).status, 204);
    const answered = await fetchLocal(`http://${NAME}:${httpPort}/.well-known/acme-challenge/tok_1`);
    assert.equal([answered.status, answered.text], [200, 'tok_1.thumb']);
    assert.is((await put('tok_1', { key_authorization: 'x' })).status, 401, 'no credential');
    const badToken = await put('a.b', { key_authorization: 'x' }, credential);
    assert.equal([badToken.status, badToken.body.error.code], [400, 'invalid_request'], badToken.text);
    const badBody = await put('tok_2', { key_authorization: 'x y', extra: 1 }, credential);
    assert.equal([badBody.status, badBody.body.error.code], [400, 'invalid_request'], badBody.text);
    assert.is((await app.call('DELETE', '/edge/v1/acme-challenge/tok_1', { key: credential })).status, 204);
    assert.is((await fetchLocal(`http://${NAME}:${httpPort}/.well-known/acme-challenge/tok_1`)).status, 404);

    const status = await edgeStatus(e.config);
    assert.is(status.certificate?.state, 'valid');
    assert.is(status.certificate?.source, 'files');
    assert.equal(status.certificate?.names, [NAME]);
    // The health check is plain http on the viewer port, which answers it with TLS on too.
    assert.ok(status.parts.nginx.healthy, JSON.stringify(status));
  } finally {
    await publisher.stop?.();
    await edge?.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('ACME for one name shared by two edges: the CA reaches only edge B, edge A gets its certificate through the origin', async () => {
  const httpPort = await freePort();
  const httpsPort = await freePort();
  let pebble: Pebble | null = null;
  let app: TestAppliance | null = null;
  const edges: TestEdge[] = [];
  try {
    pebble = await startPebble({ httpPort, validitySeconds: 3600 });
    app = await startTestAppliance();
    // DNS (Pebble's and the preflight's) sends the shared name to edge B alone, on 127.0.0.3.
    await pebble.resolve(NAME, '127.0.0.3');
    const lookup = async (host: string) => {
      if (host === NAME) return ['127.0.0.3'];
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    };
    const tls = {
      domain: NAME,
      acme: { email: 'ops@svc.test', directory_url: pebble.directoryUrl, ca_file: pebble.caFile },
      https_port: httpsPort,
      http_port: httpPort,
    };
    const b = await startTestEdge(app, { name: 'edge-b', listenHost: '127.0.0.3', tls, tlsLookup: lookup });
    edges.push(b);
    // Edge A listens on 127.0.0.2, where the CA never connects: its tokens are answered by B, from the origin.
    const a = await startTestEdge(app, { name: 'edge-a', listenHost: '127.0.0.2', tls, tlsLookup: lookup });
    edges.push(a);

    const roots = (await pebble.issuers()).roots.join('\n');
    for (const [edge, address] of [
      [a, '127.0.0.2'],
      [b, '127.0.0.3'],
    ] as const) {
      const res = await fetchLocal(`https://${NAME}:${httpsPort}/healthz`, { caPem: roots, address });
      assert.is(res.status, 200, `https on ${address}`);
      const status = await edgeStatus(edge.config);
      assert.is(status.certificate?.source, 'acme');
      assert.is(status.certificate?.state, 'valid');
    }
    // Nothing is left at the origin once the orders are done.
    assert.is(
      (await fetchLocal(`http://${NAME}:${httpPort}/.well-known/acme-challenge/nobody`, { address: '127.0.0.3' }))
        .status,
      404,
    );
  } finally {
    for (const edge of edges.reverse()) await edge.close();
    await app?.close();
    await pebble?.stop();
  }
});

test.run();
