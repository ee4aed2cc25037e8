import { createHmac } from 'node:crypto';
import { UNKNOWN_COUNTRY, type LogLine } from './line.js';

/**
 * One line of a Cloudflare Logpush `http_requests` file (NDJSON, one request per line) as the CDN
 * log's line (docs/decisions.md, "Any CDN in front"): the format chosen for imports because it
 * carries what the origin's own log has and nothing needs guessing: the body bytes
 * (`EdgeResponseBodyBytes`), the viewer's country (`ClientCountry`), the address and user agent
 * the viewer id is made of. Fields it needs (Logpush lets the operator pick them): ClientIP,
 * ClientRequestUserAgent, ClientRequestPath (or ClientRequestURI), ClientCountry,
 * EdgeResponseStatus, EdgeResponseBodyBytes, EdgeEndTimestamp (or EdgeStartTimestamp), in any of
 * Logpush's timestamp formats. Pure: no clock, no I/O.
 */
export interface LogpushFields {
  ClientIP?: unknown;
  ClientRequestUserAgent?: unknown;
  ClientRequestPath?: unknown;
  ClientRequestURI?: unknown;
  ClientCountry?: unknown;
  EdgeResponseStatus?: unknown;
  EdgeResponseBodyBytes?: unknown;
  EdgeEndTimestamp?: unknown;
  EdgeStartTimestamp?: unknown;
  CacheCacheStatus?: unknown;
  WorkerSubrequest?: unknown;
}

/**
 * The viewer id the origin's nginx writes for the same viewer (appliance/nginx/cdn-viewer.js): a
 * keyed hash of address and user agent, so a viewer counts once in a minute whichever way it came.
 */
export const viewerId = (key: string, address: string, userAgent: string): string =>
  createHmac('sha256', key).update(`${address}\n${userAgent}`).digest('hex').slice(0, 16);

// The path form's signature segment and a member's session (templates/nginx/nginx.conf.njk, $cdn_path).
const SIGNED = /^\/[A-Za-z0-9_-]{22}\.[0-9]{10}(?:\/vsn_[a-z0-9]{20})?(\/.*)$/;

/** The path as the origin's log keeps it: no signature segment (the query form has none in the path). */
export function unsignedPath(path: string): string {
  return SIGNED.exec(path)?.[1] ?? path;
}

/**
 * Logpush's three timestamp formats: `unixnano` (its default, an integer of nanoseconds), `unix`
 * (seconds) and `rfc3339` (text). Milliseconds since the epoch; null when it is none of them.
 */
export function timestampMs(value: unknown): number | null {
  if (typeof value === 'string') {
    if (/^[0-9]+$/.test(value)) return timestampMs(Number(value));
    const ms = Date.parse(value);
    return Number.isFinite(ms) ? ms : null;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return null;
  // Nanoseconds are past 1e17 for any date after 1973; seconds below 1e11 until the year 5138.
  if (value > 1e17) return Math.round(value / 1e6);
  if (value < 1e11) return Math.round(value * 1000);
  return Math.round(value);
}

/** Cloudflare's codes for no country: unknown and Tor. */
const NO_COUNTRY = new Set(['', 'XX', 'T1']);

/**
 * The line, or null when it is not a request line of the format (another file, a torn line) or
 * is a Worker's own subrequest (the fetch a Worker makes to the origin is not a delivery).
 */
export function parseLogpushLine(text: string, viewerKey: string): LogLine | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as LogpushFields;
  if (o.WorkerSubrequest === true) return null;
  const status = o.EdgeResponseStatus;
  const bytes = o.EdgeResponseBodyBytes;
  const timeMs = timestampMs(o.EdgeEndTimestamp ?? o.EdgeStartTimestamp);
  const rawPath =
    typeof o.ClientRequestPath === 'string'
      ? o.ClientRequestPath
      : typeof o.ClientRequestURI === 'string'
        ? o.ClientRequestURI.split('?')[0]
        : null;
  if (typeof status !== 'number' || !Number.isInteger(status)) return null;
  if (typeof bytes !== 'number' || !Number.isInteger(bytes) || bytes < 0) return null;
  if (timeMs === null || rawPath === null || rawPath === undefined) return null;
  const country = typeof o.ClientCountry === 'string' ? o.ClientCountry.toUpperCase() : '';
  const address = typeof o.ClientIP === 'string' ? o.ClientIP : '';
  const agent = typeof o.ClientRequestUserAgent === 'string' ? o.ClientRequestUserAgent : '';
  return {
    timeMs,
    status,
    bytes,
    path: unsignedPath(rawPath),
    country: NO_COUNTRY.has(country) || !/^[A-Z]{2}$/.test(country) ? UNKNOWN_COUNTRY : country,
    viewer: address === '' ? '' : viewerId(viewerKey, address, agent),
    // Cloudflare's `hit`, `miss`, `expired`... as nginx names them (`HIT`, `MISS`...): the CDN's hit ratio.
    cache: typeof o.CacheCacheStatus === 'string' ? o.CacheCacheStatus.toUpperCase() : '',
  };
}
