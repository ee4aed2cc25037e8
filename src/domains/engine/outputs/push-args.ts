import { parseOutputUrl } from './target.js';

/**
 * The command line of one restreaming push (docs/decisions.md, "Restreaming: pushing"): the
 * publisher's stream as sent (`-c copy`) to an RTMP, RTMPS or SRT target. Pure functions,
 * golden-tested; the key never leaves them but in the argv ffmpeg is given.
 */

export interface PushTarget {
  /** The output's `url` (without the key). */
  url: string;
  /** The stream key, appended as each protocol expects it. */
  key: string;
  /** The address the SSRF check approved: what ffmpeg connects to where the protocol allows. */
  address: string;
  family: 4 | 6;
  /** The CA bundle an RTMPS target's certificate must chain to (its name checked too). */
  caFile: string;
}

/** Where the push reads the publisher: this node's nginx-rtmp, or nginx's recording of the session from its first byte. */
export type PushInput = { kind: 'live'; url: string } | { kind: 'recording' };

/** How long a read or write may stall before ffmpeg gives up (a receiver that takes nothing, a frozen input). */
export const STALL_SECONDS = 10;

const bracketed = (address: string, family: 4 | 6) => (family === 6 ? `[${address}]` : address);

/**
 * What ffmpeg is told to write to, and the output options that go with it.
 * - RTMP: to the address checked (no second DNS answer), with the original URL as `tcUrl` so the
 *   server still sees the name it is known by (virtual hosts).
 * - RTMPS: to the host name: TLS needs it for SNI (ffmpeg sends none to a numeric host) and
 *   ffmpeg resolves it again (docs: DNS rebinding).
 * - SRT: to the address checked; the key is the `streamid`.
 */
export function outputTarget(target: PushTarget): { options: string[]; url: string } {
  // A URL the API saved: `target.ts` read it when it was saved, and reads it the same way here.
  const { scheme, port, app } = parseOutputUrl(target.url);
  const pinned = bracketed(target.address, target.family);
  if (scheme === 'srt') {
    // SRT outputs may have no key: then no streamid.
    const streamId = target.key ? `?streamid=${encodeURIComponent(target.key)}` : '';
    return { options: ['-f', 'mpegts'], url: `srt://${pinned}:${port}${streamId}` };
  }
  const flv = ['-f', 'flv', '-flvflags', 'no_duration_filesize'];
  // The URL as saved, without a trailing slash: the name the target knows itself by.
  const named = target.url.replace(/\/+$/, '');
  // Verified: an impostor on the path would otherwise get the key.
  if (scheme === 'rtmps')
    return { options: [...flv, '-tls_verify', '1', '-ca_file', target.caFile], url: `${named}/${target.key}` };
  return { options: [...flv, '-rtmp_tcurl', named], url: `rtmp://${pinned}:${port}/${app}/${target.key}` };
}

/**
 * The push's argv. Progress (bytes written) comes on stdout every second; only errors on stderr.
 * Reads and writes that stall for STALL_SECONDS end it, so a stuck receiver is retried instead
 * of holding a connection that takes nothing.
 */
export function pushArgs(input: PushInput, target: PushTarget): string[] {
  const out = outputTarget(target);
  const stall = String(STALL_SECONDS * 1_000_000);
  const source = input.kind === 'live' ? ['-rw_timeout', stall, '-i', input.url] : ['-f', 'flv', '-i', 'pipe:0'];
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostats',
    '-progress',
    'pipe:1',
    '-stats_period',
    '1',
    ...source,
    '-map',
    '0:v?',
    '-map',
    '0:a?',
    '-c',
    'copy',
    '-rw_timeout',
    stall,
    ...out.options,
    out.url,
  ];
}

/** `text` with every spelling of the key replaced: nothing the appliance logs or stores holds it. */
export function redactKey(text: string, key: string): string {
  if (!key) return text;
  let out = text;
  for (const spelling of new Set([key, encodeURIComponent(key)])) out = out.split(spelling).join('<key>');
  return out;
}

const MAX_ERROR = 200;

/**
 * A short reason from ffmpeg's last error lines (`[rtmp @ 0x55d…] Server error: …`, `… I/O error`),
 * without the key and the addresses of ffmpeg's structures.
 */
export function errorReason(
  lines: readonly string[],
  key: string,
  exit: { code: number | null; signal: string | null },
): string {
  const meaningful = lines
    .map((l) =>
      redactKey(l, key)
        .replace(/\[[\w-]+ @ 0x[0-9a-f]+\]\s*/gi, '')
        .trim(),
    )
    .filter((l) => l && !/^Conversion failed!?$/.test(l));
  // The first lines say why (a refusal, a timeout); what follows is ffmpeg's summary of it.
  const reason = meaningful.slice(0, 2).join('; ');
  const fallback = exit.signal ? `ffmpeg ended by ${exit.signal}` : `ffmpeg exited with code ${exit.code ?? '?'}`;
  const text = reason || fallback;
  return text.length > MAX_ERROR ? `${text.slice(0, MAX_ERROR - 1)}…` : text;
}
