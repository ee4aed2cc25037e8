import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import type { ConfigFile } from '../../src/config/schema.js';
import { createEcdsaKey } from '../../src/platform/tls/acme.js';
import { startTestAppliance } from '../helpers/appliance.js';
import { testCertificate } from '../helpers/certificates.js';
import { testLookup } from '../helpers/pebble.js';
import { freePort } from '../helpers/ports.js';
import { sleep } from '../helpers/streams.js';

/**
 * A start that cannot get a certificate stops before anything runs, with an error that names what
 * to fix: a name that does not resolve to this machine, the http port taken by another program, an
 * expired operator certificate, a key that is not the certificate's.
 */
interface Ctx {
  dir: string;
  held: Server[];
}
const t = suite<Ctx>('TLS: a start that cannot serve https');

t.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-test-bad-tls-'));
  ctx.held = [];
});

t.after.each(async (ctx) => {
  for (const server of ctx.held) await new Promise((r) => server.close(r));
  rmSync(ctx.dir, { recursive: true, force: true });
});

async function ports() {
  return { https_port: await freePort(), http_port: await freePort(), rtmps_port: await freePort() };
}

/** The start fails with `message`, and left nothing: no nginx, nothing on the TLS ports. */
async function refused(tls: NonNullable<ConfigFile['tls']>, message: RegExp): Promise<void> {
  let dataDir = '';
  const error = await startTestAppliance(
    { listen_host: '127.0.0.1', tls },
    { tlsLookup: testLookup, beforeStart: (dir) => (dataDir = dir) },
  ).then(
    () => null,
    (err: unknown) => err as Error,
  );
  assert.ok(error, 'the start must fail');
  assert.match(error.message, message, error.message);
  assert.not.ok(existsSync(dataPaths(dataDir).nginxPid), 'nginx never started');
  for (const port of [tls.https_port, tls.rtmps_port]) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer().once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    assert.ok(free, `port ${port} is free again`);
  }
}

t('ACME for a name that does not resolve: the DNS record to create', async () => {
  await refused(
    {
      domain: 'nowhere.invalid',
      acme: { email: 'ops@svc.test', directory_url: 'https://127.0.0.1:1/dir' },
      ...(await ports()),
    },
    /nowhere\.invalid does not resolve.*: create an A\/AAAA record pointing at this machine/,
  );
});

t('ACME with the http port held by another program: which port, and the setting', async (ctx) => {
  const p = await ports();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(p.http_port, '127.0.0.1', resolve));
  ctx.held.push(server);
  await refused(
    { domain: 'live.svc.test', acme: { email: 'ops@svc.test', directory_url: 'https://127.0.0.1:1/dir' }, ...p },
    new RegExp(`port ${p.http_port} is in use by another program: stop it or set tls\\.http_port`),
  );
});

t(
  'the https port held by another program: nginx cannot start, and the error names the holder and the setting',
  async (ctx) => {
    const good = await testCertificate(['live.svc.test']);
    writeFileSync(join(ctx.dir, 'chain.pem'), good.chainPem);
    writeFileSync(join(ctx.dir, 'key.pem'), good.keyPem);
    const p = await ports();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(p.https_port, '127.0.0.1', resolve));
    ctx.held.push(server);
    let dataDir = '';
    const error = await startTestAppliance(
      {
        listen_host: '127.0.0.1',
        tls: {
          domain: 'live.svc.test',
          certificate_file: join(ctx.dir, 'chain.pem'),
          key_file: join(ctx.dir, 'key.pem'),
          ...p,
        },
      },
      { beforeStart: (dir) => (dataDir = dir) },
    ).then(
      () => null,
      (err: unknown) => err as Error,
    );
    assert.ok(error, 'the start must fail');
    assert.match(
      error.message,
      new RegExp(
        `port ${p.https_port} \\(tls\\.https_port\\) is held by pid ${process.pid} .*: stop that process or set another tls\\.https_port in config\\.json`,
      ),
      error.message,
    );
    assert.not.ok(existsSync(dataPaths(dataDir).nginxPid), 'no nginx left running');
  },
);

t('an expired operator certificate; a key that is not its key', async (ctx) => {
  const expired = await testCertificate(['live.svc.test'], 0);
  await sleep(1100);
  writeFileSync(join(ctx.dir, 'expired.pem'), expired.chainPem);
  writeFileSync(join(ctx.dir, 'expired-key.pem'), expired.keyPem);
  await refused(
    {
      domain: 'live.svc.test',
      certificate_file: join(ctx.dir, 'expired.pem'),
      key_file: join(ctx.dir, 'expired-key.pem'),
      ...(await ports()),
    },
    /expired on .*: renew it or remove tls\.certificate_file to use ACME/,
  );
  const good = await testCertificate(['live.svc.test']);
  writeFileSync(join(ctx.dir, 'good.pem'), good.chainPem);
  writeFileSync(join(ctx.dir, 'other-key.pem'), createEcdsaKey());
  await refused(
    {
      domain: 'live.svc.test',
      certificate_file: join(ctx.dir, 'good.pem'),
      key_file: join(ctx.dir, 'other-key.pem'),
      ...(await ports()),
    },
    /the key in .*other-key\.pem is not the key of the certificate in .*good\.pem/,
  );
});

t.run();
