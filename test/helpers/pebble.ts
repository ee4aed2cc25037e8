import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { freePort } from './ports.js';

/**
 * A real ACME CA for tests: Debian's Pebble with pebble-challtestsrv as its DNS. challtestsrv
 * answers every name (`live.svc.test`, `localhost`, anything) with 127.0.0.1, so Pebble's
 * validation of http-01 comes to `http://127.0.0.1:<httpPort>/.well-known/acme-challenge/<token>`,
 * where the test's responder listens. The test's own lookups (the preflight, the self-probe) do
 * not see that DNS: glibc knows only /etc/hosts, so tests pass a resolver of their own.
 *
 * Pebble makes a new root and intermediate at every start (so a restarted Pebble is another CA,
 * as a real CA's outage is not) and listens on https with a certificate we make here, which
 * `caFile` holds for the client to trust.
 */
export interface Pebble {
  directoryUrl: string;
  /** The PEM of Pebble's own https listener (directory and management), for `caFile`. */
  caFile: string;
  /** Pebble's issuing roots and intermediates, fetched from the management port. */
  issuers(): Promise<{ roots: string[]; intermediates: string[] }>;
  /** Answers A queries for `host` with `address` only (Pebble's validation then connects there). */
  resolve(host: string, address: string): Promise<void>;
  /** Stops only the CA (challtestsrv keeps answering DNS): the CA's outage. */
  stopCa(): Promise<void>;
  /** Starts the CA again on the same ports (a new root). */
  startCa(): Promise<void>;
  stop(): Promise<void>;
}

export interface PebbleOptions {
  /** Where Pebble's validation connects for http-01. */
  httpPort: number;
  /** The issued certificates' lifetime. */
  validitySeconds?: number;
}

export async function startPebble(options: PebbleOptions): Promise<Pebble> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-pebble-'));
  const caFile = join(dir, 'listener.pem');
  const keyFile = join(dir, 'listener-key.pem');
  await execa('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=pebble test listener',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-keyout',
    keyFile,
    '-out',
    caFile,
  ]);
  const [dnsPort, challtestManagement, acmePort, managementPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const configFile = join(dir, 'pebble.json');
  writeFileSync(
    configFile,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: caFile,
        privateKey: keyFile,
        httpPort: options.httpPort,
        tlsPort: await freePort(),
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
        certificateValidityPeriod: options.validitySeconds ?? 3600,
      },
    }),
  );

  const challtest = execa(
    'pebble-challtestsrv',
    [
      '-dns01',
      `127.0.0.1:${dnsPort}`,
      '-management',
      `127.0.0.1:${challtestManagement}`,
      '-http01',
      '',
      '-https01',
      '',
      '-tlsalpn01',
      '',
    ],
    { reject: false, buffer: false, stdio: 'ignore' },
  );
  await waitFor(() => post(challtestManagement, '/set-default-ipv4', { ip: '127.0.0.1' }), 'pebble-challtestsrv');
  // No AAAA answers: Pebble would try ::1 first, where the tests' listeners are not.
  await post(challtestManagement, '/set-default-ipv6', { ip: '' });

  const agent = new Agent({ ca: readFileSync(caFile) });
  let ca: ResultPromise | null = null;
  const startCa = async () => {
    ca = execa('pebble', ['-config', configFile, '-dnsserver', `127.0.0.1:${dnsPort}`], {
      env: { PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0' },
      reject: false,
      buffer: false,
      stdio: 'ignore',
    });
    await waitFor(() => get(agent, acmePort, '/dir'), 'pebble');
  };
  const stopCa = async () => {
    ca?.kill('SIGTERM');
    await ca;
    ca = null;
  };
  await startCa();

  const all = async (kind: 'roots' | 'intermediates') => {
    const found: string[] = [];
    // Pebble numbers alternate chains from 0; a missing one answers 404.
    for (let i = 0; ; i++) {
      const pem = await get(agent, managementPort, `/${kind}/${i}`).catch(() => null);
      if (!pem?.includes('BEGIN CERTIFICATE')) return found;
      found.push(pem);
    }
  };
  return {
    directoryUrl: `https://localhost:${acmePort}/dir`,
    caFile,
    issuers: async () => ({ roots: await all('roots'), intermediates: await all('intermediates') }),
    resolve: (host, address) => post(challtestManagement, '/add-a', { host, addresses: [address] }),
    stopCa,
    startCa,
    stop: async () => {
      await stopCa();
      challtest.kill('SIGTERM');
      await challtest;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function waitFor(attempt: () => Promise<unknown>, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  for (;;) {
    try {
      await attempt();
      return;
    } catch (error) {
      if (performance.now() > deadline) throw new Error(`${what} did not start: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function get(agent: Agent, port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', servername: 'localhost', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end();
  });
}

function post(port: number, path: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * What the tests resolve names with in place of glibc (which knows only /etc/hosts): every name
 * under `.svc.test` is this machine, as challtestsrv tells Pebble; anything else does not exist.
 */
export async function testLookup(hostname: string): Promise<string[]> {
  if (hostname.endsWith('.svc.test')) return ['127.0.0.1'];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
}
