import { hash as digest } from 'node:crypto';
import { deriveKey } from '../../../config/secrets.js';

/**
 * Signed CDN addresses, checked by nginx's `secure_link` on every request (no API call):
 * `<md5(expiry/kind/stream_id secret) as base64url>.<expiry>`. The kind keeps a live
 * signature from opening the recording and the other way round. MD5 is what secure_link
 * offers built in; its weakness is collisions, which need an attacker to choose both
 * messages, and here only the appliance chooses what it signs (docs/decisions.md).
 * `pub` is the public embed read's address: nginx also refuses it while the stream's player is
 * closed or members-only, which the owner's `hls` address ignores (docs/decisions.md,
 * "Hardening: a closed player stops its shared address").
 */
export type SignedKind = 'hls' | 'pub' | 'rec';

/** The appliance's CDN secret, derived so that secrets.json needs no new key. */
export const cdnSecret = (signingKey: string): string =>
  deriveKey(signingKey, 'svc cdn url signing v1').toString('base64url');

/** With `sessionId`, the signature also covers the viewer session: a member's personal address. */
export function signatureSegment(
  secret: string,
  kind: SignedKind,
  streamId: string,
  expiresAt: Date,
  sessionId?: string,
): string {
  const expiry = Math.floor(expiresAt.getTime() / 1000);
  const signed = sessionId ? `${expiry}/${kind}/${streamId}/${sessionId}` : `${expiry}/${kind}/${streamId}`;
  // One-shot `hash`: signed on every read of every stream (20 per list page), and a `Hash` object each time showed in the list's profile.
  return `${digest('md5', `${signed} ${secret}`, 'base64url')}.${expiry}`;
}

/** Playback addresses remembered: each read re-signs every stream it shows (20 per list page). */
const MAX_REMEMBERED = 10_000;

/** Every address the CDN serves; streams, recordings and the embed read all take theirs from here. */
export class CdnAddresses {
  /** A stream's playback address by id and expiry: its expiry is fixed per stream, so reads sign the same address again and again. */
  private readonly signedPlayback = new Map<string, string>();

  constructor(
    private readonly cdnUrl: string,
    private readonly secret: string,
  ) {}

  /** The owner's address (stream reads, playback tokens): it works whatever the player's settings. */
  playback(streamId: string, expiresAt: Date): string {
    return this.remembered('hls', streamId, expiresAt);
  }

  /** The embed read's address, the same for every viewer: refused while the player is closed or members-only. */
  publicPlayback(streamId: string, expiresAt: Date): string {
    return this.remembered('pub', streamId, expiresAt);
  }

  private remembered(kind: 'hls' | 'pub', streamId: string, expiresAt: Date): string {
    const key = `${kind}/${streamId}/${expiresAt.getTime()}`;
    let url = this.signedPlayback.get(key);
    if (url === undefined) {
      url = `${this.cdnUrl}/${signatureSegment(this.secret, kind, streamId, expiresAt)}/${streamId}/master.m3u8`;
      if (this.signedPlayback.size >= MAX_REMEMBERED) this.signedPlayback.clear();
      this.signedPlayback.set(key, url);
    }
    return url;
  }

  /**
   * A member's personal address (docs/decisions.md, Viewer identity): valid for one viewer
   * session until `expiresAt`; a renewal changes only the signature segment, so a player can
   * keep every path below it.
   */
  personalPlayback(streamId: string, sessionId: string, expiresAt: Date): string {
    return `${this.cdnUrl}/${signatureSegment(this.secret, 'hls', streamId, expiresAt, sessionId)}/${sessionId}/${streamId}/master.m3u8`;
  }

  recording(streamId: string, expiresAt: Date): string {
    return `${this.cdnUrl}/${signatureSegment(this.secret, 'rec', streamId, expiresAt)}/_rec/${streamId}/recording.mp4`;
  }

  /** The latest still of a stream; public (no signature), a neutral picture until the first still. */
  thumbnail(streamId: string): string {
    return `${this.cdnUrl}/_thumb/${streamId}.jpg`;
  }
}
