import {
  checkHostOnSave,
  isAddress,
  resolveHost,
  TargetRefused,
  type HostPolicy,
} from '../../../platform/http/ssrf.js';

/**
 * Webhook targets must be https on the public internet. The host rules are the shared SSRF guard
 * (`platform/http/ssrf.ts`, also used by restreaming outputs); this adds what a webhook URL may be.
 * A URL is checked when it is saved and again at every send, where the sender connects to the very
 * address checked (DNS rebinding).
 */

export {
  addressRange,
  addressRefusal,
  systemLookup,
  TargetRefused,
  type Lookup,
  type ResolvedAddress,
} from '../../../platform/http/ssrf.js';

/** `allowPrivate` is the operator's `allow_private_webhooks`: http and private/loopback targets (local testing). */
export type TargetPolicy = HostPolicy;

export interface Target {
  url: URL;
  /** Host name or address without IPv6 brackets. */
  host: string;
  port: number;
  /** The address checked, to connect to. */
  address: string;
  family: 4 | 6;
}

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
  return { url, host, port, literal: isAddress(host) };
}

/**
 * When a URL is saved. A host name that does not resolve now is accepted (the receiver may not
 * exist yet, or DNS is down): it is checked again at every send.
 */
export async function checkTargetOnSave(text: string, policy: TargetPolicy, timeoutMs = 3000): Promise<void> {
  const { host } = parseTargetUrl(text, policy.allowPrivate);
  await checkHostOnSave(host, policy, { unresolved: 'accept', timeoutMs });
}

/** At send: the address to connect to, checked; any failure is a TargetRefused. */
export async function resolveTarget(text: string, policy: TargetPolicy, timeoutMs: number): Promise<Target> {
  const { url, host, port } = parseTargetUrl(text, policy.allowPrivate);
  return { url, host, port, ...(await resolveHost(host, policy, timeoutMs)) };
}
