import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { execa } from 'execa';

export interface TestCertificate {
  /** The leaf's certificate, then its CA's. */
  chainPem: string;
  keyPem: string;
  /** The CA to trust it with. */
  caPem: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/**
 * A certificate for `names` from a throwaway CA (openssl's own CLI), for tests and benches that need
 * TLS without an ACME server: a chain that verifies against `caPem` and nothing else.
 */
export async function testCertificate(names: readonly string[], days = 2): Promise<TestCertificate> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-cert-'));
  try {
    const f = (name: string) => join(dir, name);
    await execa(
      'openssl',
      ['req', '-x509', ...EC, '-keyout', f('ca.key'), '-out', f('ca.pem')].concat([
        '-days',
        String(days + 1),
        '-subj',
        '/CN=svc test CA',
      ]),
    );
    await execa('openssl', ['req', ...EC, '-keyout', f('leaf.key'), '-out', f('leaf.csr'), '-subj', `/CN=${names[0]}`]);
    writeFileSync(f('ext'), `subjectAltName=${names.map((n) => `DNS:${n}`).join(',')}\n`);
    await execa('openssl', [
      'x509',
      '-req',
      '-in',
      f('leaf.csr'),
      '-CA',
      f('ca.pem'),
      '-CAkey',
      f('ca.key'),
      '-CAcreateserial',
      '-days',
      String(days),
      '-extfile',
      f('ext'),
      '-out',
      f('leaf.pem'),
    ]);
    const caPem = readFileSync(f('ca.pem'), 'utf8');
    return {
      chainPem: readFileSync(f('leaf.pem'), 'utf8') + caPem,
      keyPem: readFileSync(f('leaf.key'), 'utf8'),
      caPem,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface LocalReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A request to a public name that this machine serves, with every name resolved to 127.0.0.1 (as
 * DNS would point it at the appliance) and only `caPem` trusted: the certificate must verify for
 * the URL's own name.
 */
export function fetchLocal(
  url: string,
  opts: {
    caPem?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Where the name resolves (default 127.0.0.1): one of several machines sharing it. */
    address?: string;
  } = {},
): Promise<LocalReply> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const address = opts.address ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    const req = send(
      target,
      {
        method: opts.method ?? 'GET',
        headers: opts.headers,
        ca: opts.caPem,
        lookup: (_host, options, callback) =>
          (options as { all?: boolean }).all
            ? (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
                { address, family: 4 },
              ])
            : callback(null, address, 4),
        timeout: 10_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('latin1');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${url}: no answer within 10 s`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}
