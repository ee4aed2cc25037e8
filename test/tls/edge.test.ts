import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { fetchLocal, testCertificate, type TestCertificate } from '../helpers/certificates.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, runPublisher, waitFor } from '../helpers/publisher.js';

/**
 * The public edge with the operator's own certificate: every surface on https under the public
 * name, http only for the redirect (and loopback), RTMPS into the same admission and pipeline.
 * Names resolve to 127.0.0.1 as DNS would point them here; only the test CA is trusted.
 */
const DOMAIN = 'live.svc.test';
const PLAYER = 'watch.svc.test';

interface Ctx {
  app: TestAppliance;
  cert: TestCertificate;
  certDir: string;
  key: string;
}
const t = suite<Ctx>('public edge: https and rtmps');

t.before(async (ctx) => {
  ctx.cert = await testCertificate([DOMAIN, PLAYER]);
  ctx.certDir = mkdtempSync(join(tmpdir(), 'svc-test-operator-cert-'));
  writeFileSync(join(ctx.certDir, 'chain.pem'), ctx.cert.chainPem);
  writeFileSync(join(ctx.certDir, 'key.pem'), ctx.cert.keyPem, { mode: 0o600 });
  writeFileSync(join(ctx.certDir, 'ca.pem'), ctx.cert.caPem);
  // Every address, as TLS defaults to: plain RTMP on the wildcard must stay plain beside RTMPS.
  ctx.app = await startTestAppliance({
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
});

t.after(async (ctx) => {
  await ctx.app?.close();
  rmSync(ctx.certDir, { recursive: true, force: true });
});

const tlsPorts = (ctx: Ctx) => {
  const tls = ctx.app.config.tls;
  if (!tls) throw new Error('TLS is off');
  return tls.ports;
};

t('every public address says https (rtmps for ingest); the player has its own name on the https port', async (ctx) => {
  const { https, rtmps } = tlsPorts(ctx);
  const created = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: {} });
  assert.is(created.status, 201, created.text);
  const s = created.body;
  assert.is(s.rtmp_url, `rtmps://${DOMAIN}:${rtmps}/live`);
  assert.ok(s.whip_url.startsWith(`https://${DOMAIN}:${https}/live/${s.id}?`), s.whip_url);
  assert.is(s.embed_url, `https://${PLAYER}:${https}/${s.id}`);
  assert.ok(s.playback_url.startsWith(`https://${DOMAIN}:${ctx.app.config.ports.cdn}/`), s.playback_url);
  const root = await fetchLocal(`https://${DOMAIN}:${https}/`, { caPem: ctx.cert.caPem });
  assert.is(root.status, 200);
  assert.ok(JSON.parse(root.text).docs_url.startsWith(`https://${DOMAIN}:${https}/`));
});

t('the API over https: the certificate verifies for the name, HSTS is sent; http redirects to https', async (ctx) => {
  const { https, http } = tlsPorts(ctx);
  const read = await fetchLocal(`https://${DOMAIN}:${https}/v1/streams`, {
    caPem: ctx.cert.caPem,
    headers: { authorization: `Bearer ${ctx.key}` },
  });
  assert.is(read.status, 200, read.text);
  assert.match(String(read.headers['strict-transport-security']), /^max-age=\d{7,}/);
  const plain = await fetchLocal(`http://${DOMAIN}:${http}/v1/streams?limit=1`);
  assert.is(plain.status, 301);
  assert.is(plain.headers.location, `https://${DOMAIN}:${https}/v1/streams?limit=1`);
  // The player site under its own name, with HSTS on its pages.
  const page = await fetchLocal(`https://${PLAYER}:${https}/str_00000000000000000000`, { caPem: ctx.cert.caPem });
  assert.is(page.status, 404);
  const created = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: {} });
  const embed = await fetchLocal(created.body.embed_url, { caPem: ctx.cert.caPem });
  assert.is(embed.status, 200, embed.text.slice(0, 200));
  assert.match(String(embed.headers['strict-transport-security']), /^max-age=/);
});

/** What `openssl s_client` says of a handshake at `port` with `args`. */
async function handshake(ctx: Ctx, port: number, args: string[]): Promise<{ ok: boolean; output: string }> {
  const r = await execa(
    'openssl',
    [
      's_client',
      '-connect',
      `127.0.0.1:${port}`,
      '-servername',
      DOMAIN,
      '-verify_hostname',
      DOMAIN,
      '-CAfile',
      join(ctx.certDir, 'ca.pem'),
      '-verify_return_error',
      ...args,
    ],
    { input: '', reject: false, all: true },
  );
  return { ok: r.exitCode === 0, output: r.all ?? '' };
}

t('openssl s_client: TLS 1.2 and 1.3 with a verified chain on every TLS port; 1.0 and 1.1 refused', async (ctx) => {
  const { https, rtmps } = tlsPorts(ctx);
  for (const port of [https, rtmps, ctx.app.config.ports.cdn, ctx.app.config.ports.player]) {
    for (const version of ['-tls1_2', '-tls1_3']) {
      const r = await handshake(ctx, port, [version]);
      assert.ok(r.ok, `${version} on ${port}: ${r.output.slice(-400)}`);
      assert.match(r.output, /Verify return code: 0 \(ok\)/);
      assert.match(r.output, /Certificate chain\n 0 s:CN = live\.svc\.test/);
    }
    for (const version of ['-tls1', '-tls1_1']) {
      const r = await handshake(ctx, port, [version]);
      assert.not.ok(r.ok, `${version} on ${port} must be refused`);
    }
  }
});

t('ffmpeg publishes over rtmps (verifying the certificate): live, plays over https, records', async (ctx) => {
  const clip = await makeClip({ width: 320, height: 180, seconds: 8, gopSeconds: 1 });
  const created = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: { record: true } });
  assert.is(created.status, 201, created.text);
  const s = created.body;
  const { rtmps } = tlsPorts(ctx);
  const verified = ['-tls_verify', '1', '-ca_file', join(ctx.certDir, 'ca.pem'), '-verifyhost', DOMAIN];
  // A wrong key over RTMPS is refused as over RTMP.
  const wrong = runPublisher([
    '-re',
    '-i',
    clip,
    '-c',
    'copy',
    '-f',
    'flv',
    ...verified,
    `rtmps://127.0.0.1:${rtmps}/live/${s.id}?key=wrong`,
  ]);
  // (Through a unix socket nginx-rtmp skipped on_publish: this publisher got in. See the template.)
  assert.is.not(await wrong.exited, 0, 'a wrong key is refused');
  assert.ok(wrong.sentSeconds() < 2, `refused at once, not after ${wrong.sentSeconds()} s`);
  const publisher = runPublisher([
    '-re',
    '-i',
    clip,
    '-c',
    'copy',
    '-f',
    'flv',
    ...verified,
    `rtmps://127.0.0.1:${rtmps}/live/${s.stream_key}`,
  ]);
  try {
    const live = await waitFor('live over rtmps', async () => {
      const r = await ctx.app.call('GET', `/v1/streams/${s.id}`, { key: ctx.key });
      return r.body.status === 'live' && r.body;
    });
    const master = await waitFor('master playlist over https', async () => {
      const r = await fetchLocal(live.playback_url, { caPem: ctx.cert.caPem });
      return r.status === 200 && r;
    });
    const media = master.text.split('\n').find((l) => l.endsWith('.m3u8'));
    assert.ok(media, master.text);
    const mediaUrl = new URL(media, live.playback_url).toString();
    const segment = await waitFor('a segment over https', async () => {
      const list = await fetchLocal(mediaUrl, { caPem: ctx.cert.caPem });
      const name = list.text.split('\n').find((l) => l.endsWith('.ts'));
      return name ? fetchLocal(new URL(name, mediaUrl).toString(), { caPem: ctx.cert.caPem }) : undefined;
    });
    assert.is(segment.status, 200);
    assert.ok(segment.text.length > 1000);
    // Capacity holds RTMPS's TLS beside the ladder.
    const row = await ctx.app.db.sql`select publisher_client_id, ingest_relay from streams where id = ${s.id}`;
    assert.ok(row[0]?.publisher_client_id, 'the publisher is recorded');
    assert.is(row[0]?.ingest_relay, 'rtmps');
    assert.is(await publisher.exited, 0);
    // Plain RTMP still answers beside RTMPS (encoders without TLS), with the same key check.
    const plain = runPublisher([
      '-re',
      '-i',
      clip,
      '-t',
      '2',
      '-c',
      'copy',
      '-f',
      'flv',
      `rtmp://127.0.0.1:${ctx.app.config.ports.rtmp}/live/${s.stream_key}`,
    ]);
    assert.is(await plain.exited, 0, 'plain RTMP publishes');
    const ended = await ctx.app.call('DELETE', `/v1/streams/${s.id}`, { key: ctx.key });
    assert.is(ended.status, 200, ended.text);
    await waitFor(
      'recording ready',
      async () => {
        const r = await ctx.app.call('GET', `/v1/streams/${s.id}`, { key: ctx.key });
        return r.body.recording?.status === 'ready';
      },
      60_000,
    );
  } finally {
    await publisher.kill();
  }
});

t.run();
