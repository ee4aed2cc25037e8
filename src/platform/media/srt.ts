import { createHmac } from 'node:crypto';
import { deriveKey } from '../../config/secrets.js';
import { relayOutputArgs, type RelayTarget } from './relay.js';

/**
 * SRT ingest's pure parts (docs/decisions.md, "SRT ingest"): the passphrase a stream's publisher
 * encrypts with, the URL it is given, and the relay that listens for it and publishes RTMP into
 * the appliance's own nginx.
 */

/** The key passphrases are derived with, from the appliance's signing key. */
export const srtPassphraseKey = (signingKey: string): Buffer => deriveKey(signingKey, 'svc srt passphrase v1');

/** libsrt takes 10 to 79 characters; 32 base64url characters hold 192 bits. */
const PASSPHRASE_CHARS = 32;

/**
 * Derived from the stream's key hash, so the server recomputes it without the key (only its hash
 * is stored), and a new key gives a new passphrase.
 */
export function srtPassphrase(passphraseKey: Buffer, streamId: string, keyHash: Buffer): string {
  return createHmac('sha256', passphraseKey)
    .update(`srt/${streamId}/${keyHash.toString('hex')}`)
    .digest('base64url')
    .slice(0, PASSPHRASE_CHARS);
}

/**
 * What a publisher is given, in ffmpeg's URL syntax, which OBS takes as is: `latency` in
 * microseconds (libsrt's own URIs, as in srt-live-transmit, say milliseconds).
 */
export function srtPublishUrl(opts: { host: string; port: number; passphrase: string; latencyMs: number }): string {
  const host = opts.host.includes(':') && !opts.host.startsWith('[') ? `[${opts.host}]` : opts.host;
  return `srt://${host}:${opts.port}?passphrase=${opts.passphrase}&latency=${opts.latencyMs * 1000}`;
}

/**
 * The listener, as an ffconcat file read by the relay: its passphrase stays out of the command
 * line, which every local user can read (ffmpeg 5.1 reads no option from a file otherwise).
 */
export function srtListenerInput(opts: {
  listenHost: string;
  port: number;
  passphrase: string;
  latencyMs: number;
}): string {
  const url = `srt://${opts.listenHost}:${opts.port}?mode=listener&latency=${opts.latencyMs * 1000}`;
  return ['ffconcat version 1.0', `file '${url}'`, `option passphrase ${opts.passphrase}`, ''].join('\n');
}

export interface SrtRelayOptions extends RelayTarget {
  /** The ffconcat file of srtListenerInput. */
  inputFile: string;
}

/** Waits for one publisher, copies its MPEG-TS (H.264 and AAC) into RTMP, and exits when it leaves. */
export function srtRelayArgs(opts: SrtRelayOptions): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'file,srt,udp',
    '-safe',
    '0',
    '-f',
    'concat',
    '-i',
    opts.inputFile,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0?',
    '-c',
    'copy',
    ...relayOutputArgs(opts),
  ];
}
