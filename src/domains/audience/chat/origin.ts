const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `example.com`, `*.example.com` (subdomains only) and either with `:port` (that port only). */
function matches(entry: string, url: URL): boolean {
  const colon = entry.lastIndexOf(':');
  const pattern = colon === -1 ? entry : entry.slice(0, colon);
  if (colon !== -1 && entry.slice(colon + 1) !== (url.port || DEFAULT_PORT[url.protocol])) return false;
  if (pattern.startsWith('*.'))
    return url.hostname.endsWith(pattern.slice(1)) && url.hostname.length > pattern.length - 1;
  return url.hostname === pattern;
}

/**
 * Whether a browser on `origin` may use a stream's chat: any site when `allowed_domains` is null,
 * else the listed sites and the appliance's own (the hosted player). A request without `Origin`
 * is not a browser's cross-site request (servers, same-origin reads): allowed.
 */
export function originAllowed(
  origin: string | undefined,
  allowedDomains: string[] | null,
  ownOrigins: readonly string[],
): boolean {
  if (allowedDomains === null || origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    // `Origin: null` (sandboxed frames, file: pages) is nobody's site.
    return false;
  }
  if (ownOrigins.includes(url.origin)) return true;
  return allowedDomains.some((entry) => matches(entry, url));
}
