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
 * "Hardening: a closed player stops its shared address"). `thm` signs a stream's current still,
 * `stl` one still of its recording (docs/decisions.md, "Thumbnail endpoints").
 */
export type SignedKind = 'hls' | 'pub' | 'rec' | 'thm' | 'stl' | 'rpl';

/** The appliance's CDN secret, derived so that secrets.json needs no new key. */
export const cdnSecret = (signingKey: string): string =>
  deriveKey(signingKey, 'svc cdn url signing v1').toString('base64url');

/**
 * With `sessionId`, the signature also covers the viewer session (a member's personal address) or,
 * for a recording's still, the still's name.
 */
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

/**
 * Where an address carries its signature (docs/decisions.md, "Any CDN in front"): `path`, as a path
 * segment before the stream (`/<sig>[/<vsn>]/<stream>/<file>`); `query`, as the `svc` query
 * parameter (`/<stream>/<file>?svc=<sig>[.<vsn>]`), so that a third-party CDN caching by path keeps
 * one copy of each segment whoever asks. The origin serves both.
 */
export type TokenForm = 'path' | 'query';

/** The `svc` parameter's value: the signature, and a member's session after it. */
export const queryToken = (signature: string, sessionId?: string): string =>
  sessionId ? `${signature}.${sessionId}` : signature;

/** Playback addresses remembered: each read re-signs every stream it shows (20 per list page). */
const MAX_REMEMBERED = 10_000;

/** Every address the CDN serves; streams, recordings and the embed read all take theirs from here. */
export class CdnAddresses {
  /** A stream's playback address by id and expiry: its expiry is fixed per stream, so reads sign the same address again and again. */
  private readonly signedPlayback = new Map<string, string>();

  constructor(
    private readonly cdnUrl: string,
    private readonly secret: string,
    private readonly form: TokenForm = 'path',
  ) {}

  /** `below` (the path after the signature) signed by `signature`, in this appliance's token form. */
  private address(signature: string, below: string, sessionId?: string): string {
    if (this.form === 'query') return `${this.cdnUrl}/${below}?svc=${queryToken(signature, sessionId)}`;
    return `${this.cdnUrl}/${signature}/${sessionId ? `${sessionId}/` : ''}${below}`;
  }

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
      url = this.address(signatureSegment(this.secret, kind, streamId, expiresAt), `${streamId}/master.m3u8`);
      if (this.signedPlayback.size >= MAX_REMEMBERED) this.signedPlayback.clear();
      this.signedPlayback.set(key, url);
    }
    return url;
  }

  /**
   * A member's personal address (docs/decisions.md, Viewer identity): valid for one viewer
   * session until `expiresAt`; a renewal changes only the signature (the segment before the
   * session, or the `svc` parameter), so a player can keep every path below it.
   */
  personalPlayback(streamId: string, sessionId: string, expiresAt: Date): string {
    const signature = signatureSegment(this.secret, 'hls', streamId, expiresAt, sessionId);
    return this.address(signature, `${streamId}/master.m3u8`, sessionId);
  }

  recording(streamId: string, expiresAt: Date): string {
    return this.address(signatureSegment(this.secret, 'rec', streamId, expiresAt), `_rec/${streamId}/recording.mp4`);
  }

  /**
   * The current still's signed address (`GET /v1/streams/{id}/thumbnail`). In the query token form
   * it is the public address with `svc`, which the origin serves without checking: the still is
   * public anyway, and the signature is there for CDNs that check one.
   */
  signedThumbnail(streamId: string, expiresAt: Date): string {
    return this.address(signatureSegment(this.secret, 'thm', streamId, expiresAt), `_thumb/${streamId}.jpg`);
  }

  /** A still of the recording, `name` being its time (`12.3`); the signature covers the name. */
  recordingStill(streamId: string, name: string, expiresAt: Date): string {
    const signature = signatureSegment(this.secret, 'stl', streamId, expiresAt, name);
    return this.address(signature, `_still/${streamId}/${name}.jpg`);
  }

  /**
   * A stream's replay (docs/decisions.md, "Replays (issue 33)"), HLS VOD from its recording; with
   * `sessionId`, a member's personal address.
   */
  replay(streamId: string, expiresAt: Date, sessionId?: string): string {
    const signature = signatureSegment(this.secret, 'rpl', streamId, expiresAt, sessionId);
    return this.address(signature, `_replay/${streamId}/index.m3u8`, sessionId);
  }

  /** The latest still of a stream; public (no signature), a neutral picture until the first still. */
  thumbnail(streamId: string): string {
    return `${this.cdnUrl}/_thumb/${streamId}.jpg`;
  }
}
