import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { createEcdsaKey, issueCertificate } from '../../src/platform/tls/acme.js';
import { checkCertificateFiles, inspectCertificate } from '../../src/platform/tls/certificate.js';
import { startChallengeResponder } from '../../src/platform/tls/challenge-responder.js';
import { TlsError } from '../../src/platform/tls/errors.js';
import { CertificateKeeper, readTlsState, type AcmeSource } from '../../src/platform/tls/keeper.js';
import { tlsFiles } from '../../src/platform/tls/store.js';
import { startPebble, testLookup, type Pebble } from '../helpers/pebble.js';
import { freePort } from '../helpers/ports.js';

/**
 * Each way a certificate cannot be had or served is a TlsError whose message names what to fix.
 * One certificate from Pebble (an hour's validity) plays the operator's own.
 */
const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
const NAMES = ['live.svc.test', 'www.svc.test'];
let dir: string;
let pebble: Pebble;
let httpPort: number;
let certificateFile: string;
let keyFile: string;
let notBefore: Date;
let notAfter: Date;

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-test-tls-errors-'));
  httpPort = await freePort();
  pebble = await startPebble({ httpPort, validitySeconds: 3600 });
  const challengeDir = join(dir, 'challenges');
  const responder = await startChallengeResponder({ challengeDir, port: httpPort, host: '127.0.0.1' });
  const keyPem = createEcdsaKey();
  const chain = await issueCertificate({
    directoryUrl: pebble.directoryUrl,
    email: null,
    caFile: pebble.caFile,
    accountKeyFile: join(dir, 'account.pem'),
    domains: NAMES,
    certificateKeyPem: keyPem,
    challengeDir,
    httpPort,
    log,
  }).finally(() => responder.stop());
  certificateFile = join(dir, 'operator-cert.pem');
  keyFile = join(dir, 'operator-key.pem');
  writeFileSync(certificateFile, chain);
  writeFileSync(keyFile, keyPem);
  ({ notBefore, notAfter } = inspectCertificate(chain));
});

test.after(async () => {
  await pebble.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function rejects(action: () => Promise<unknown>, message: RegExp): Promise<void> {
  try {
    await action();
  } catch (error) {
    assert.instance(error, TlsError);
    assert.match((error as Error).message, message);
    return;
  }
  assert.unreachable(`no TlsError matching ${message}`);
}

const check = (extra: Partial<Parameters<typeof checkCertificateFiles>[0]> = {}) =>
  checkCertificateFiles({
    certificateFile,
    keyFile,
    names: NAMES,
    now: new Date(notBefore.getTime() + 1000),
    ...extra,
  });

function acmeKeeper(names: string[], source: Partial<AcmeSource> = {}): CertificateKeeper {
  return new CertificateKeeper({
    tlsDir: mkdtempSync(join(dir, 'tls-')),
    names,
    source: {
      kind: 'acme',
      directoryUrl: pebble.directoryUrl,
      email: null,
      caFile: pebble.caFile,
      httpPort,
      lookup: testLookup,
      ...source,
    },
    log,
  });
}

test('a name that does not resolve', async () => {
  await rejects(
    () => acmeKeeper(['live.svc.test', 'live.example.invalid']).ensure(),
    /^live\.example\.invalid does not resolve \(.*ENOTFOUND.*\): create an A\/AAAA record pointing at this machine$/,
  );
});

test('a name that resolves elsewhere than this machine', async () => {
  const nowhere = await freePort();
  await rejects(
    () => acmeKeeper(['live.svc.test'], { httpPort: nowhere }).ensure(),
    new RegExp(
      `^live\\.svc\\.test resolves to 127\\.0\\.0\\.1 but does not reach this machine on port ${nowhere} \\(127\\.0\\.0\\.1: .*ECONNREFUSED.*\\)`,
    ),
  );
});

test('the CA cannot fetch the token', async () => {
  // Nothing serves the challenge folder; the self-probe is off, so the CA is the one to find out.
  await rejects(
    () => acmeKeeper(['live.svc.test'], { selfProbe: false }).ensure(),
    new RegExp(
      `^the CA could not fetch http://live\\.svc\\.test:${httpPort}/\\.well-known/acme-challenge/[\\w-]+ \\(.+\\): port ${httpPort} of live\\.svc\\.test must reach this machine`,
    ),
  );
});

test('an ACME directory out of reach', async () => {
  const closed = await freePort();
  await rejects(
    () => acmeKeeper(['live.svc.test'], { directoryUrl: `https://localhost:${closed}/dir`, selfProbe: false }).ensure(),
    new RegExp(`^cannot reach the ACME directory https://localhost:${closed}/dir: .*ECONNREFUSED`),
  );
});

test('the challenge port in use', async () => {
  const taken = createServer();
  const port = await freePort();
  await new Promise<void>((resolve) => taken.listen(port, '0.0.0.0', resolve));
  try {
    await rejects(
      () => startChallengeResponder({ challengeDir: dir, port }),
      new RegExp(`^port ${port} is in use by another program: stop it or set tls.http_port$`),
    );
  } finally {
    taken.close();
  }
});

test('the challenge responder serves tokens and nothing else', async () => {
  const port = await freePort();
  const challengeDir = join(dir, 'served');
  const responder = await startChallengeResponder({ challengeDir, port, host: '127.0.0.1' });
  try {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(challengeDir, { recursive: true });
    writeFileSync(join(challengeDir, 'tok-en_1'), 'tok-en_1.thumbprint');
    const get = (path: string) => fetch(`http://127.0.0.1:${port}${path}`);
    const served = await get('/.well-known/acme-challenge/tok-en_1');
    assert.is(served.status, 200);
    assert.is(await served.text(), 'tok-en_1.thumbprint');
    for (const path of ['/.well-known/acme-challenge/missing', '/.well-known/acme-challenge/..%2Fx', '/tok-en_1', '/'])
      assert.is((await get(path)).status, 404, path);
  } finally {
    await responder.stop();
  }
});

test('an operator certificate: each fault named', async () => {
  await rejects(
    () => check({ certificateFile: join(dir, 'missing.pem') }),
    /^cannot read the certificate file .*missing\.pem: ENOENT/,
  );
  const text = join(dir, 'not-pem.pem');
  writeFileSync(text, 'hello, not a certificate\n');
  await rejects(
    () => check({ certificateFile: text }),
    /not-pem\.pem is not a PEM certificate: it must hold "-----BEGIN CERTIFICATE-----" blocks/,
  );
  const otherKey = join(dir, 'other-key.pem');
  writeFileSync(otherKey, createEcdsaKey());
  await rejects(
    () => check({ keyFile: otherKey }),
    new RegExp(`^the key in ${otherKey} is not the key of the certificate in ${certificateFile}`),
  );
  await rejects(
    () => check({ now: new Date(notAfter.getTime() + 1000) }),
    new RegExp(
      `^the certificate in ${certificateFile} expired on \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC: renew it or remove tls.certificate_file to use ACME$`,
    ),
  );
  await rejects(
    () => check({ now: new Date(notBefore.getTime() - 60_000) }),
    /is not valid before .*: check this machine's clock/,
  );
  await rejects(
    () => check({ names: ['live.svc.test', 'other.svc.test'] }),
    /does not cover other\.svc\.test \(it covers live\.svc\.test, www\.svc\.test\)/,
  );
  const checked = await check();
  assert.equal(checked.names, NAMES);
});

test('operator files: copied as one file, then expiring and expired by the clock', async () => {
  const clock = new ManualClock(new Date(notBefore.getTime() + 1000));
  const tlsDir = mkdtempSync(join(dir, 'files-'));
  const keeper = new CertificateKeeper({
    tlsDir,
    names: NAMES,
    source: { kind: 'files', certificateFile, keyFile },
    log,
    clock,
  });
  const status = await keeper.ensure();
  assert.is(status.source, 'files');
  assert.is(status.state, 'valid');
  const served = readFileSync(tlsFiles(tlsDir).certificate, 'utf8');
  assert.ok(served.startsWith(readFileSync(keyFile, 'utf8')));
  assert.ok(served.endsWith(readFileSync(certificateFile, 'utf8')));
  // An hour's certificate warns in its last sixth (10 minutes), below warn_days.
  clock.advance(3600 - 9 * 60);
  assert.is(keeper.status().state, 'expiring');
  clock.advance(10 * 60);
  assert.is(keeper.status().state, 'expired');
  assert.is((await readTlsState(tlsDir, clock))?.state, 'expired');
  await rejects(() => keeper.ensure(), /expired on .*: renew it or remove tls.certificate_file to use ACME$/);
});

test.run();
