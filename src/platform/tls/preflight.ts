import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { lookup as dnsLookup } from 'node:dns/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import type { ChallengeShare } from './acme.js';
import { CHALLENGE_PATH } from './challenge-responder.js';
import { reason, TlsError } from './errors.js';

/** The addresses a name resolves to; injectable so that tests can resolve names of their own. */
export type Lookup = (hostname: string) => Promise<string[]>;

export const systemLookup: Lookup = async (hostname) =>
  (await dnsLookup(hostname, { all: true })).map((entry) => entry.address);

export interface PreflightOptions {
  domains: readonly string[];
  challengeDir: string;
  httpPort: number;
  lookup?: Lookup;
  /** Off where this machine cannot reach its own public address (no hairpin NAT): names are still resolved. */
  selfProbe?: boolean;
  /** Per probe request. */
  timeoutMs?: number;
  /** Where the order's tokens are shared too: the probe's is, so a fetch that lands elsewhere finds it. */
  share?: ChallengeShare | undefined;
}

/**
 * What the CA will do, done first from here so that a failure names its cause: each domain must
 * resolve, and a token written to the challenge folder must come back from
 * `http://<domain>:<httpPort>/.well-known/acme-challenge/<token>` at one of its addresses
 * (whoever serves the folder: the challenge responder or nginx).
 */
export async function preflight(options: PreflightOptions): Promise<void> {
  const { domains, challengeDir, httpPort, lookup = systemLookup, selfProbe = true, timeoutMs = 5000 } = options;
  const resolved = await Promise.all(
    domains.map(async (domain) => ({ domain, addresses: await resolve(domain, lookup) })),
  );
  if (!selfProbe) return;

  mkdirSync(challengeDir, { recursive: true, mode: 0o755 });
  const token = `svc-probe-${randomBytes(12).toString('hex')}`;
  const file = join(challengeDir, token);
  await writeFile(file, token, { mode: 0o644 });
  try {
    await options.share?.put(token, token).catch((error: unknown) => {
      throw new TlsError(`cannot share the challenge probe: ${reason(error)}`);
    });
    for (const { domain, addresses } of resolved) {
      const failures: string[] = [];
      for (const address of addresses) {
        const answer = await probe(address, domain, httpPort, token, timeoutMs);
        if (answer === token) break;
        failures.push(`${address}: ${answer}`);
      }
      if (failures.length === addresses.length)
        throw new TlsError(
          `${domain} resolves to ${addresses.join(', ')} but does not reach this machine on port ${httpPort} (${failures.join('; ')}): point its A/AAAA records at this machine and open port ${httpPort}`,
        );
    }
  } finally {
    await rm(file, { force: true });
    await options.share?.remove(token).catch(() => undefined);
  }
}

async function resolve(domain: string, lookup: Lookup): Promise<string[]> {
  let addresses: string[];
  try {
    addresses = await lookup(domain);
  } catch (error) {
    throw new TlsError(
      `${domain} does not resolve (${reason(error)}): create an A/AAAA record pointing at this machine`,
    );
  }
  if (!addresses.length)
    throw new TlsError(`${domain} does not resolve: create an A/AAAA record pointing at this machine`);
  return addresses;
}

/** The body served for the token at one address, or why there was none. */
function probe(address: string, domain: string, port: number, token: string, timeoutMs: number): Promise<string> {
  return new Promise((done) => {
    const req = request(
      {
        host: address,
        port,
        path: `${CHALLENGE_PATH}${token}`,
        headers: { host: `${domain}:${port}` },
        timeout: timeoutMs,
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body = (body + chunk).slice(0, 200)));
        res.on('end', () =>
          done(res.statusCode !== 200 ? `HTTP ${res.statusCode}` : body === token ? token : 'another server answered'),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', (error) => done(error.message));
    req.end();
  });
}
