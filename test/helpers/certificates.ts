import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
