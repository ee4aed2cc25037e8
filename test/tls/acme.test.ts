import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { createServer, connect, type Server } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import { splitChain, inspectCertificate } from '../../src/platform/tls/certificate.js';
import { startChallengeResponder, type ChallengeResponder } from '../../src/platform/tls/challenge-responder.js';
import { CertificateKeeper, readTlsState, type KeeperOptions, type TlsStatus } from '../../src/platform/tls/keeper.js';
import { tlsFiles } from '../../src/platform/tls/store.js';
import { startPebble, testLookup, type Pebble } from '../helpers/pebble.js';
import { freePort } from '../helpers/ports.js';
import { waitFor } from '../helpers/publisher.js';

/**
 * Certificates from a real ACME CA (Pebble): issued over http-01 through the challenge responder,
 * kept across a restart, renewed before expiry, and kept through the CA's outage.
 */
const NAMES = ['live.svc.test', 'www.svc.test'];
const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
const cleanups: (() => Promise<unknown> | unknown)[] = [];

test.after.each(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A Pebble whose validations reach a challenge responder over a fresh tls dir. */
async function setUp(validitySeconds: number) {
  const tlsDir = mkdtempSync(join(tmpdir(), 'svc-test-tls-'));
  cleanups.push(() => rmSync(tlsDir, { recursive: true, force: true }));
  const httpPort = await freePort();
  const responder: ChallengeResponder = await startChallengeResponder({
    challengeDir: tlsFiles(tlsDir).challengeDir,
    port: httpPort,
    host: '127.0.0.1',
  });
  cleanups.push(() => responder.stop());
  const pebble: Pebble = await startPebble({ httpPort, validitySeconds });
  cleanups.push(() => pebble.stop());
  const options = (extra: Partial<KeeperOptions> = {}): KeeperOptions => ({
    tlsDir,
    names: NAMES,
    source: {
      kind: 'acme',
      directoryUrl: pebble.directoryUrl,
      email: 'ops@svc.test',
      caFile: pebble.caFile,
      httpPort,
      lookup: testLookup,
    },
    log,
    ...extra,
  });
  const keeper = (extra: Partial<KeeperOptions> = {}) => {
    const k = new CertificateKeeper(options(extra));
    cleanups.push(() => k.stop());
    return k;
  };
  return { tlsDir, httpPort, pebble, keeper };
}

const serialOf = (tlsDir: string) =>
  inspectCertificate(readFileSync(tlsFiles(tlsDir).certificate, 'utf8')).serialNumber;

/** The served file as a TLS server's key and certificate, and what a client trusting `root` is shown for `name`. */
async function handshake(file: string, root: string, name: string): Promise<{ authorized: boolean; serial: string }> {
  const pem = readFileSync(file);
  const server: Server = createServer({ key: pem, cert: pem }, (socket) => socket.end());
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );
  try {
    return await new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, servername: name, ca: root }, () => {
        resolve({ authorized: socket.authorized, serial: socket.getPeerX509Certificate()?.serialNumber ?? '' });
        socket.destroy();
      });
      socket.on('error', reject);
    });
  } finally {
    server.close();
  }
}

test('issues a certificate for two names over http-01 that verifies against the CA root', async () => {
  const { tlsDir, pebble, keeper } = await setUp(3600);
  const started = performance.now();
  const status = await keeper({ servedToGid: 65534 }).ensure();
  const ms = Math.round(performance.now() - started);
  console.log(`  issuance against Pebble: ${ms} ms`);

  assert.equal(status.source, 'acme');
  assert.equal(status.names, NAMES);
  assert.equal(status.state, 'valid');
  assert.is(status.last_error, null);
  assert.ok(status.last_renewal_at);

  const files = tlsFiles(tlsDir);
  assert.is(statSync(files.certificate).mode & 0o777, 0o640, "read by nginx's workers' group");
  assert.is(statSync(files.certificate).gid, 65534);
  const text = readFileSync(files.certificate, 'utf8');
  assert.match(text, /^-----BEGIN PRIVATE KEY-----/);
  const chain = splitChain(text).map((pem) => new X509Certificate(pem));
  assert.is(chain.length, 2, 'the leaf and Pebble intermediate');
  const { roots } = await pebble.issuers();
  const root = new X509Certificate(roots[0] as string);
  assert.ok(chain[0]!.verify(chain[1]!.publicKey), 'the leaf is signed by the intermediate');
  assert.ok(chain[1]!.verify(root.publicKey), 'the intermediate is signed by the root');
  assert.is(chain[0]!.publicKey.asymmetricKeyDetails?.namedCurve, 'prime256v1');
  for (const name of NAMES) {
    const shown = await handshake(files.certificate, roots[0] as string, name);
    assert.ok(shown.authorized, `a client trusting the root accepts ${name}`);
  }
  assert.equal(await readTlsState(tlsDir), status);
});

test('a restart uses the stored certificate without a new order', async () => {
  const { tlsDir, keeper } = await setUp(3600);
  const first = await keeper().ensure();
  assert.is(statSync(tlsFiles(tlsDir).certificate).mode & 0o777, 0o600);
  const serial = serialOf(tlsDir);
  const second = await keeper().ensure();
  assert.is(serialOf(tlsDir), serial);
  assert.is(second.last_renewal_at, first.last_renewal_at);
  assert.is(second.state, 'valid');
});

test('renews before expiry: a new certificate, the callback called', async () => {
  const { tlsDir, keeper } = await setUp(9);
  const renewed: TlsStatus[] = [];
  const k = keeper({ onRenewed: (status) => renewed.push(status) });
  const first = await k.ensure();
  const serial = serialOf(tlsDir);
  k.start();
  // Due at two thirds of the 9 s lifetime.
  await waitFor('a renewal', async () => renewed.length > 0, 15_000, 100);
  assert.is.not(serialOf(tlsDir), serial);
  assert.is(renewed[0]!.state, 'valid');
  assert.ok(renewed[0]!.not_after > first.not_after);
  assert.equal(k.status(), await readTlsState(tlsDir));
});

test('keeps serving through a CA outage and renews once the CA is back', async () => {
  const { tlsDir, pebble, keeper } = await setUp(24);
  const renewed: TlsStatus[] = [];
  const k = keeper({ onRenewed: (status) => renewed.push(status), retryMinSeconds: 0.5, retryMaxSeconds: 2 });
  await k.ensure();
  const serial = serialOf(tlsDir);
  await pebble.stopCa();
  k.start();

  const failing = await waitFor(
    'a failed renewal',
    async () => {
      const s = await readTlsState(tlsDir);
      return s?.state === 'renewal_failing' ? s : null;
    },
    25_000,
    100,
  );
  assert.match(failing.last_error ?? '', /cannot reach the ACME directory https:\/\/localhost:\d+\/dir/);
  const wait = new Date(failing.next_attempt_at as string).getTime() - Date.now();
  assert.ok(wait > 0 && wait <= 500, `the first retry within retryMinSeconds (${wait} ms)`);
  assert.is(serialOf(tlsDir), serial, 'the old certificate is still served');
  // A second failure waits longer (up to 1 s: min·2).
  const second = await waitFor(
    'a second failure',
    async () => {
      const s = await readTlsState(tlsDir);
      return s && s.next_attempt_at !== failing.next_attempt_at ? s : null;
    },
    5_000,
    50,
  );
  assert.is(second.state, 'renewal_failing');

  await pebble.startCa();
  await waitFor('a renewal after the outage', async () => renewed.length > 0, 10_000, 100);
  assert.is.not(serialOf(tlsDir), serial);
  const status = k.status();
  assert.is(status.state, 'valid');
  assert.is(status.last_error, null);
  assert.is(status.next_attempt_at, null);
});

test.run();
