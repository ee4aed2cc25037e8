import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import acme from 'acme-client';
import type { Logger } from '../../core/logger.js';
import { reason, TlsError } from './errors.js';
import { readIfPresent, writeAtomically } from './store.js';

/**
 * Another place that must answer a token too: edges sharing one name, where the CA's fetch may
 * reach an edge other than the one ordering (docs/decisions.md, "Edges over https").
 */
export interface ChallengeShare {
  put(token: string, keyAuthorization: string): Promise<void>;
  remove(token: string): Promise<void>;
}

export interface AcmeOrder {
  directoryUrl: string;
  /** The account's contact, where the CA writes about expiry and policy; none is allowed. */
  email: string | null;
  /** A PEM bundle to trust the directory's https with (a private CA such as Pebble); the system's roots otherwise. */
  caFile: string | null;
  /** Made on first use and kept: the CA knows the account by this key. */
  accountKeyFile: string;
  /** The first is the certificate's common name; all are its subject alternative names. */
  domains: readonly string[];
  certificateKeyPem: string;
  /** http-01 token files go to `<challengeDir>/<token>`, served on port `httpPort` of each domain. */
  challengeDir: string;
  /** Where the CA fetches tokens: always 80 with a public CA, named in errors. */
  httpPort: number;
  /** Each token is also put there before the CA is told to fetch it, and removed after. */
  share?: ChallengeShare | undefined;
  log: Logger;
}

/** An ECDSA P-256 key in PKCS#8 PEM: what certificates and the account are signed with. */
export function createEcdsaKey(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
    type: 'pkcs8',
    format: 'pem',
  }) as string;
}

/** The key in `file`, made (0600) the first time. */
export async function keyFromFile(file: string): Promise<string> {
  const existing = await readIfPresent(file);
  if (existing) return existing;
  const key = createEcdsaKey();
  await writeAtomically(file, key, 0o600);
  return key;
}

/**
 * Orders a certificate for `domains` over ACME with http-01 and returns its full chain (PEM, the
 * server's certificate first). Every failure is a TlsError saying what happened and what to do.
 */
export async function issueCertificate(order: AcmeOrder): Promise<string> {
  const { directoryUrl, domains, log } = order;
  const ca = order.caFile ? await readCaFile(order.caFile) : null;
  trustDirectory(directoryUrl, ca);
  await reachDirectory(directoryUrl, ca);

  const client = new acme.Client({
    directoryUrl,
    accountKey: await keyFromFile(order.accountKeyFile),
    // Polls of a pending challenge or order: a public CA answers within seconds.
    backoffAttempts: 10,
    backoffMin: 1000,
    backoffMax: 10_000,
  });
  await step(`the CA at ${directoryUrl} refused the account`, () =>
    client.createAccount({
      termsOfServiceAgreed: true,
      ...(order.email ? { contact: [`mailto:${order.email}`] } : {}),
    }),
  );
  const placed = await step(`the CA at ${directoryUrl} refused an order for ${domains.join(', ')}`, () =>
    client.createOrder({ identifiers: domains.map((value) => ({ type: 'dns', value })) }),
  );
  const authorizations = await step(`the CA at ${directoryUrl} did not give the order's authorizations`, () =>
    client.getAuthorizations(placed),
  );

  mkdirSync(order.challengeDir, { recursive: true, mode: 0o755 });
  const written: string[] = [];
  const shared: string[] = [];
  const validate = async (authorization: (typeof authorizations)[number]) => {
    if (authorization.status === 'valid') return;
    const domain = authorization.identifier.value;
    const challenge = authorization.challenges.find((c) => c.type === 'http-01');
    if (!challenge)
      throw new TlsError(`the CA at ${directoryUrl} offers no http-01 challenge for ${domain}: use a CA that does`);
    const file = join(order.challengeDir, challenge.token);
    // Readable by nginx's workers, which serve it after the first start.
    const keyAuthorization = await client.getChallengeKeyAuthorization(challenge);
    await writeFile(file, keyAuthorization, { mode: 0o644 });
    written.push(file);
    if (order.share) {
      const share = order.share;
      await step(`cannot share the challenge of ${domain}`, () => share.put(challenge.token, keyAuthorization));
      shared.push(challenge.token);
    }
    const url = `http://${domain}${order.httpPort === 80 ? '' : `:${order.httpPort}`}/.well-known/acme-challenge/${challenge.token}`;
    await step(`the CA could not start the validation of ${domain}`, () => client.completeChallenge(challenge));
    try {
      await client.waitForValidStatus(challenge);
    } catch (error) {
      throw new TlsError(
        `the CA could not fetch ${url} (${reason(error)}): port ${order.httpPort} of ${domain} must reach this machine, which serves ${order.challengeDir} there`,
      );
    }
    log.debug({ domain }, 'acme: domain validated');
  };
  try {
    // Every domain at once: each validation is one or more polls of the CA.
    const results = await Promise.allSettled(authorizations.map(validate));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    const csr = (
      await acme.crypto.createCsr({ commonName: domains[0], altNames: [...domains] }, order.certificateKeyPem)
    )[1];
    const finalized = await step(`the CA at ${directoryUrl} refused to finalize the order`, () =>
      client.finalizeOrder(placed, csr),
    );
    return await step(`the CA at ${directoryUrl} did not hand out the certificate`, () =>
      client.getCertificate(finalized),
    );
  } finally {
    await Promise.all(written.map((file) => rm(file, { force: true })));
    // A token left behind is harmless (it answers nothing but its own, expired challenge).
    await Promise.all(shared.map((token) => order.share?.remove(token).catch(() => undefined)));
  }
}

async function step<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof TlsError) throw error;
    throw new TlsError(`${what}: ${reason(error)}`);
  }
}

async function readCaFile(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new TlsError(`cannot read the ACME CA file ${file}: ${reason(error)}`);
  }
}

/**
 * acme-client sends every request through one axios instance of its own: a request interceptor
 * gives the requests to each directory's origin the https agent that trusts that directory's CA
 * file. Kept per origin (not set on the instance's defaults) so that no other https request of
 * acme-client trusts a private CA, and two directories in one process (tests) do not mix.
 */
const agents = new Map<string, Agent>();
let intercepting = false;

function trustDirectory(directoryUrl: string, ca: string | null): void {
  const origin = new URL(directoryUrl).origin;
  if (!ca) {
    agents.delete(origin);
    return;
  }
  agents.set(origin, new Agent({ ca, keepAlive: false }));
  if (intercepting) return;
  intercepting = true;
  acme.axios.interceptors.request.use((config) => {
    const agent = config.url ? agents.get(originOf(config.url)) : undefined;
    if (agent) config.httpsAgent = agent;
    return config;
  });
}

const originOf = (url: string) => {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
};

/**
 * One plain GET of the directory before anything else: acme-client retries a refused connection
 * for over a minute, and its error would not say that the directory itself is out of reach.
 */
async function reachDirectory(directoryUrl: string, ca: string | null): Promise<void> {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(directoryUrl, { ca: ca ?? undefined, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', reject);
    req.end();
  }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const hint = /CERT|SELF_SIGNED|UNABLE_TO/.test(code)
      ? 'its https certificate is not trusted: for a private CA give its root as the CA file'
      : 'check the URL and that this machine can reach it';
    throw new TlsError(`cannot reach the ACME directory ${directoryUrl}: ${reason(error)}: ${hint}`);
  });
  if (answer.status !== 200 || !answer.body.includes('newOrder'))
    throw new TlsError(
      `the ACME directory ${directoryUrl} answered ${answer.status} without a directory: check the URL (it ends in the directory's path, e.g. /directory)`,
    );
}
