import { readFileSync } from 'node:fs';
import { connect } from 'node:tls';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { applianceStatus, describeStatus } from '../../src/operator/status.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { fetchLocal } from '../helpers/certificates.js';
import { startPebble, testLookup, type Pebble } from '../helpers/pebble.js';
import { freePort } from '../helpers/ports.js';
import { waitFor } from '../helpers/publisher.js';

/**
 * The appliance with a certificate from a real ACME CA (Pebble) issuing 30-second certificates:
 * obtained at start, kept across a restart, renewed before expiry while nginx keeps running (it
 * reads the file at each handshake), kept through the CA's outage (reported as renewal_failing in
 * /healthz, metrics and `svc status`), renewed again once the CA is back.
 */
const DOMAIN = 'live.svc.test';
const VALIDITY_SECONDS = 30;

interface Ctx {
  app: TestAppliance;
  pebble: Pebble;
}
const t = suite<Ctx>('ACME through the appliance (Pebble)');

t.before(async (ctx) => {
  const httpPort = await freePort();
  ctx.pebble = await startPebble({ httpPort, validitySeconds: VALIDITY_SECONDS });
  ctx.app = await startTestAppliance(
    {
      listen_host: '127.0.0.1',
      tls: {
        domain: DOMAIN,
        acme: {
          email: 'ops@svc.test',
          directory_url: ctx.pebble.directoryUrl,
          ca_file: ctx.pebble.caFile,
          retry_seconds: 1,
        },
        check_seconds: 1,
        https_port: await freePort(),
        http_port: httpPort,
        rtmps_port: await freePort(),
      },
    },
    { tlsLookup: testLookup },
  );
});

t.after(async (ctx) => {
  await ctx.app?.close();
  await ctx.pebble?.stop();
});

const httpsPort = (ctx: Ctx) => ctx.app.config.tls?.ports.https ?? 0;

/** The serial of the certificate nginx serves on the https port now. */
function servedSerial(ctx: Ctx): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(
      { host: '127.0.0.1', port: httpsPort(ctx), servername: DOMAIN, rejectUnauthorized: false },
      () => {
        resolve(socket.getPeerCertificate().serialNumber);
        socket.end();
      },
    );
    socket.on('error', reject);
  });
}

const roots = async (ctx: Ctx) => (await ctx.pebble.issuers()).roots.join('\n');

const nginxMaster = (ctx: Ctx) => readFileSync(dataPaths(ctx.app.dataDir).nginxPid, 'utf8').trim();

async function certificateState(ctx: Ctx): Promise<string> {
  const health = await ctx.app.call('GET', '/healthz');
  return health.body.certificate.state;
}

t('svc up obtains a certificate: the API answers over https with a chain from the CA', async (ctx) => {
  const res = await fetchLocal(`https://${DOMAIN}:${httpsPort(ctx)}/`, { caPem: await roots(ctx) });
  assert.is(res.status, 200);
  const health = await ctx.app.call('GET', '/healthz');
  assert.is(health.status, 200, health.text);
  assert.is(health.body.certificate.state, 'valid');
  assert.ok(health.body.certificate.days_left < 1, 'a 30-second certificate');
  const status = await applianceStatus(ctx.app.config, ctx.app.secrets);
  assert.is(status.certificate?.state, 'valid');
  assert.equal(status.certificate?.names, [DOMAIN]);
});

t('a restart serves the stored certificate: no new order', async (ctx) => {
  const before = await servedSerial(ctx);
  await ctx.app.restart();
  assert.is(await servedSerial(ctx), before);
});

t(
  'renewed before expiry, nginx not restarted; the CA away: renewal_failing everywhere, the certificate still served; back: renewed',
  async (ctx) => {
    const first = await servedSerial(ctx);
    const master = nginxMaster(ctx);
    const renewed = await waitFor(
      'a renewed certificate',
      async () => (await servedSerial(ctx)) !== first,
      40_000,
      250,
    );
    assert.ok(renewed);
    assert.is(nginxMaster(ctx), master, 'the same nginx serves the new certificate');
    assert.is(ctx.app.running.nginx.restarts, 0);
    const second = await servedSerial(ctx);
    const ok = await fetchLocal(`https://${DOMAIN}:${httpsPort(ctx)}/`, { caPem: await roots(ctx) });
    assert.is(ok.status, 200);

    await ctx.pebble.stopCa();
    await waitFor('renewal_failing', async () => (await certificateState(ctx)) === 'renewal_failing', 40_000, 250);
    assert.is(await servedSerial(ctx), second, 'the current certificate is still served');
    const health = await ctx.app.call('GET', '/healthz');
    assert.is(health.status, 200, 'still serving: healthy');
    assert.match(health.body.certificate.last_error, /ACME|directory|connect|reach/i);
    const metrics = await ctx.app.running.metrics.scrape();
    assert.match(metrics, /svc_tls_certificate_state\{state="renewal_failing"\} 1/);
    assert.match(metrics, /svc_tls_certificate_expiry_timestamp_seconds \d{10}/);
    const status = await applianceStatus(ctx.app.config, ctx.app.secrets);
    assert.is(status.certificate?.state, 'renewal_failing');
    assert.ok(
      describeStatus(status).some((line) => /^ {2}tls +RENEWAL FAILING .*last error: .+next attempt /.test(line)),
      describeStatus(status).join('\n'),
    );

    await ctx.pebble.startCa();
    await waitFor('renewed once the CA is back', async () => (await certificateState(ctx)) === 'valid', 30_000, 250);
    assert.is.not(await servedSerial(ctx), second);
    // A restarted Pebble is a new CA: the new chain verifies against its new root.
    const back = await fetchLocal(`https://${DOMAIN}:${httpsPort(ctx)}/`, { caPem: await roots(ctx) });
    assert.is(back.status, 200);
  },
);

t.run();
