import { promises as dns } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard: webhook targets must be https on the public internet. A URL is checked when
 * it is saved and again at every send, where the sender connects to the very address checked
 * here (a DNS answer that changes in between cannot redirect the request: DNS rebinding).
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (injected: tests answer with chosen addresses). */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export interface TargetPolicy {
  /** The operator's `allow_private_webhooks`: http and private/loopback targets (local testing). */
  allowPrivate: boolean;
  lookup: Lookup;
}

/** A target refused; `message` says why, for `last_error` and for the 400 on save. */
export class TargetRefused extends Error {}

export interface Target {
  url: URL;
  /** Host name or address without IPv6 brackets. */
  host: string;
  port: number;
  /** The address checked, to connect to. */
  address: string;
  family: 4 | 6;
}

/** Only IPv6 global unicast (2000::/3) can be public; ipaddr.js names the special ranges inside it. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** Never an HTTP server, even with private targets allowed. */
const NEVER = new Set(['unspecified', 'broadcast', 'multicast']);

/**
 * The range an address falls in: `unicast` is public; anything else (`private`, `loopback`,
 * `linkLocal`, `uniqueLocal`, `reserved`, `carrierGradeNat`, ...) is not. IPv4-mapped IPv6 is
 * judged as the IPv4 address it maps to.
 */
export function addressRange(address: string): string {
  if (!ipaddr.isValid(address)) return 'invalid';
  const ip = ipaddr.process(address);
  const range = ip.range();
  if (range !== 'unicast') return range;
  if (ip.kind() === 'ipv6' && !(ip as ipaddr.IPv6).match(GLOBAL_UNICAST_V6)) return 'reserved';
  return 'unicast';
}

/** The range that keeps `address` from being a target, or null when it may be one. */
export function addressRefusal(address: string, allowPrivate: boolean): string | null {
  const range = addressRange(address);
  if (range === 'unicast') return null;
  if (allowPrivate && !NEVER.has(range) && range !== 'invalid') return null;
  return range;
}

/**
 * Why a host is refused. A literal address is the caller's own text and is repeated; what a name
 * resolves to is not said (neither the address nor its range): the answer would map the
 * appliance's internal network for anyone who can save a webhook (issue 27).
 */
const notPublic = (host: string, address: string, range: string): string =>
  host === address
    ? `host ${host} is not a public address (${range})`
    : `host ${host} resolves to a private or reserved address`;

/** Scheme, credentials and host of a URL; no DNS. */
export function parseTargetUrl(
  text: string,
  allowPrivate: boolean,
): { url: URL; host: string; port: number; literal: boolean } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetRefused('is not an absolute URL');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) {
    throw new TargetRefused(
      allowPrivate
        ? 'must be an http or https URL'
        : 'must be an https URL (http is allowed only with the operator setting allow_private_webhooks)',
    );
  }
  if (url.username || url.password) throw new TargetRefused('must not contain a user name or password');
  // `name.` and `name` are the same DNS name; the check and the connection use the one resolved.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, '');
  if (!host) throw new TargetRefused('has no host');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { url, host, port, literal: ipaddr.isValid(host) };
}

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });

/** RFC 6761: `localhost` and names under it are loopback, whatever a resolver says. */
const isLoopbackName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

/** Every address of `host` must be allowed: one private answer among public ones is refused too. */
function vetAddresses(host: string, addresses: ResolvedAddress[], allowPrivate: boolean): ResolvedAddress {
  if (!addresses.length) throw new TargetRefused(`host ${host} has no address`);
  for (const a of addresses) {
    const range = addressRefusal(a.address, allowPrivate);
    if (range) throw new TargetRefused(notPublic(host, a.address, range));
  }
  return addresses[0] as ResolvedAddress;
}

/**
 * When a URL is saved. A host name that does not resolve now is accepted (the receiver may not
 * exist yet, or DNS is down): it is checked again at every send.
 */
export async function checkTargetOnSave(text: string, policy: TargetPolicy, timeoutMs = 3000): Promise<void> {
  const { host, literal } = parseTargetUrl(text, policy.allowPrivate);
  if (literal) {
    const range = addressRefusal(host, policy.allowPrivate);
    if (range) throw new TargetRefused(notPublic(host, host, range));
    return;
  }
  if (isLoopbackName(host) && !policy.allowPrivate)
    throw new TargetRefused(`host ${host} is a loopback name, not a public address`);
  let addresses: ResolvedAddress[];
  try {
    addresses = await withTimeout(policy.lookup(host), timeoutMs, `DNS lookup of ${host}`);
  } catch {
    return;
  }
  vetAddresses(host, addresses, policy.allowPrivate);
}

/** At send: the address to connect to, checked; any failure is a TargetRefused. */
export async function resolveTarget(text: string, policy: TargetPolicy, timeoutMs: number): Promise<Target> {
  const { url, host, port, literal } = parseTargetUrl(text, policy.allowPrivate);
  if (literal) {
    const range = addressRefusal(host, policy.allowPrivate);
    if (range) throw new TargetRefused(`refused: ${notPublic(host, host, range)}`);
    return { url, host, port, address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 };
  }
  if (isLoopbackName(host) && !policy.allowPrivate)
    throw new TargetRefused(`refused: host ${host} is a loopback name, not a public address`);
  let addresses: ResolvedAddress[];
  try {
    addresses = await withTimeout(policy.lookup(host), timeoutMs, `DNS lookup of ${host}`);
  } catch (err) {
    const code = (err as { code?: string }).code;
    throw new TargetRefused(`DNS lookup of ${host} failed (${code ?? (err as Error).message})`);
  }
  let chosen: ResolvedAddress;
  try {
    chosen = vetAddresses(host, addresses, policy.allowPrivate);
  } catch (err) {
    throw new TargetRefused(`refused: ${(err as Error).message}`);
  }
  return { url, host, port, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
