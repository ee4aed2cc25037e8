import { isAddress } from '../../../platform/http/ssrf.js';

/**
 * What an output's `url` may be (docs/decisions.md, "Restreaming: outputs API"), without DNS: the
 * service then checks the host with the SSRF guard. Pure, so the pusher reads a saved URL the same way.
 */

export const OUTPUT_SCHEMES = ['rtmp', 'rtmps', 'srt'] as const;
export type OutputScheme = (typeof OUTPUT_SCHEMES)[number];

/** The port when the URL names none; SRT has no usual port, so its URL must name one. */
export const DEFAULT_PORTS: Record<OutputScheme, number | null> = { rtmp: 1935, rtmps: 443, srt: null };

export interface OutputTarget {
  scheme: OutputScheme;
  /** Lower case, without IPv6 brackets or a trailing dot. */
  host: string;
  port: number;
  /** RTMP(S): the application path without its leading and trailing slashes (`live2`); SRT: ''. */
  app: string;
}

/** A URL refused; the message completes "`url` ..." */
export class BadOutputUrl extends Error {}

/** A DNS name (letters, digits, dots, hyphens): the URL parser keeps other schemes' hosts as opaque text. */
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/;

export function parseOutputUrl(text: string): OutputTarget {
  if (/[\s\p{Cc}]/u.test(text)) throw new BadOutputUrl('must not contain spaces or control characters');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new BadOutputUrl('is not an absolute URL');
  }
  const scheme = url.protocol.slice(0, -1) as OutputScheme;
  if (!OUTPUT_SCHEMES.includes(scheme)) throw new BadOutputUrl('must be an rtmp://, rtmps:// or srt:// URL');
  if (url.username || url.password) throw new BadOutputUrl('must not contain a user name or password');
  if (url.search || text.includes('?'))
    throw new BadOutputUrl(
      scheme === 'srt'
        ? 'must not have a query: the stream key is sent as the SRT streamid'
        : 'must not have a query: put the stream key in `stream_key`',
    );
  if (url.hash || text.includes('#')) throw new BadOutputUrl('must not have a fragment');
  const raw = url.hostname.toLowerCase();
  const bracketed = raw.startsWith('[') && raw.endsWith(']');
  const host = bracketed ? raw.slice(1, -1) : raw.replace(/\.$/, '');
  if (!host) throw new BadOutputUrl('has no host');
  if (bracketed ? !isAddress(host) : !HOST_NAME.test(host))
    throw new BadOutputUrl('must have a host name or an IP address');
  const port = url.port ? Number(url.port) : DEFAULT_PORTS[scheme];
  if (port === null) throw new BadOutputUrl('must name a port (srt://host:port)');
  if (port === 0) throw new BadOutputUrl('must not use port 0');
  const app = url.pathname.replace(/^\/+|\/+$/g, '');
  if (scheme === 'srt') {
    if (app)
      throw new BadOutputUrl('must not have a path (srt://host:port): the stream key is sent as the SRT streamid');
  } else if (!app) {
    throw new BadOutputUrl(
      `must name the application after the host (${scheme}://host/app, e.g. rtmp://a.rtmp.youtube.com/live2)`,
    );
  }
  return { scheme, host, port, app };
}

/** RTMP(S) send the key as the stream name: one is needed. SRT targets may take none. */
export const keyRequired = (scheme: OutputScheme): boolean => scheme !== 'srt';

/**
 * The key as shown: `••••` and its last 4 characters, so an owner can tell keys apart; a key
 * shorter than 12 characters shows nothing (4 would be a third of it).
 */
export const maskKey = (key: string): string | null =>
  key === '' ? null : key.length >= 12 ? `••••${key.slice(-4)}` : '••••';
