import { promises as dns } from 'node:dns';
import ipaddr from 'ipaddr.js';

/**
 * The SSRF guard for hosts that account holders name and the appliance connects to: webhook
 * receivers (HTTP, `domains/back-office/webhooks/ssrf.ts` adds the URL rules) and restreaming
 * outputs (RTMP, RTMPS, SRT: `domains/engine/outputs`). A host is checked when it is saved and
 * again when connecting, where the caller connects to the very address checked (a DNS answer that
 * changes in between cannot redirect the connection: DNS rebinding).
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (injected: tests answer with chosen addresses). */
export type Lookup = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

export interface HostPolicy {
  /** An operator setting (`allow_private_webhooks`, `allow_private_outputs`): private/loopback hosts allowed (local testing). */
  allowPrivate: boolean;
  lookup: Lookup;
}

/** A target refused; `message` says why, for `last_error` and for the 400 on save. */
export class TargetRefused extends Error {}

/** Only IPv6 global unicast (2000::/3) can be public; ipaddr.js names the special ranges inside it. */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
/** Never a server, even with private targets allowed. */
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

/** Whether a URL's host is a literal address (IPv6 without its brackets). */
export const isAddress = (host: string): boolean => ipaddr.isValid(host);

/**
 * Why a host is refused. A literal address is the caller's own text and is repeated; what a name
 * resolves to is not said (neither the address nor its range): the answer would map the
 * appliance's internal network for anyone who can save a target (issue 27).
 */
const notPublic = (host: string, address: string, range: string): string =>
  host === address
    ? `host ${host} is not a public address (${range})`
    : `host ${host} resolves to a private or reserved address`;

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

export interface SaveCheck {
  /**
   * A host name that does not resolve now: `accept` (checked again at every connection; webhooks:
   * the receiver may not exist yet) or `refuse` (outputs: a typo is said at once).
   */
  unresolved: 'accept' | 'refuse';
  timeoutMs?: number;
}

/** When a target is saved: `host` (no brackets, no trailing dot) must be public, unless the policy allows private ones. */
export async function checkHostOnSave(host: string, policy: HostPolicy, check: SaveCheck): Promise<void> {
  if (isAddress(host)) {
    const range = addressRefusal(host, policy.allowPrivate);
    if (range) throw new TargetRefused(notPublic(host, host, range));
    return;
  }
  if (isLoopbackName(host) && !policy.allowPrivate)
    throw new TargetRefused(`host ${host} is a loopback name, not a public address`);
  let addresses: ResolvedAddress[];
  try {
    addresses = await withTimeout(policy.lookup(host), check.timeoutMs ?? 3000, `DNS lookup of ${host}`);
  } catch (err) {
    if (check.unresolved === 'accept') return;
    const code = (err as { code?: string }).code;
    throw new TargetRefused(`host ${host} does not resolve (${code ?? (err as Error).message})`);
  }
  vetAddresses(host, addresses, policy.allowPrivate);
}

/** When connecting: the address to connect to, checked; any failure is a TargetRefused. */
export async function resolveHost(
  host: string,
  policy: HostPolicy,
  timeoutMs: number,
): Promise<{ address: string; family: 4 | 6 }> {
  if (isAddress(host)) {
    const range = addressRefusal(host, policy.allowPrivate);
    if (range) throw new TargetRefused(`refused: ${notPublic(host, host, range)}`);
    return { address: host, family: ipaddr.parse(host).kind() === 'ipv6' ? 6 : 4 };
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
  return { address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
