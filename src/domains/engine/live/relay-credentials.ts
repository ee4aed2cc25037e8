import { randomBytes } from 'node:crypto';

/** Which of the appliance's relays publishes: WHIP's (browser media) or SRT's. */
export type RelayKind = 'whip' | 'srt';

/** What a redeemed credential stands for. */
export interface RelayGrant {
  /** The hash of the key the relay's publisher was admitted with (SRT: proven by its passphrase). */
  keyHash: Buffer;
  via: RelayKind;
}

interface Issued extends RelayGrant {
  streamId: string;
  /** Whether the relay holding it is the one publishing now (SRT: it has a connection to nginx). */
  holds: () => boolean;
}

/**
 * One-time credentials for the appliance's own relays into nginx (WHIP's and SRT's ffmpeg): a relay
 * publishes with one instead of the stream's key, because every local user can read a process's
 * command line (docs/decisions.md, "Hardening: the WHIP relay publishes with a one-time credential").
 * A credential stands for the key hash its relay's publisher was admitted with, for one stream,
 * and is spent by its first publish; the relay's next start gets a new one.
 */
export class RelayCredentials {
  private readonly issued = new Map<string, Issued>();

  /**
   * A credential for one publish of `streamId`. `holds`: asked at redemption, for a relay whose
   * credential waits long in its command line (SRT's waits for a publisher).
   */
  issue(streamId: string, grant: RelayGrant, holds: () => boolean = () => true): string {
    const credential = randomBytes(24).toString('base64url');
    this.issued.set(credential, { streamId, ...grant, holds });
    return credential;
  }

  /** The relay that held it exited or its session closed: it can no longer be spent. */
  withdraw(credential: string): void {
    this.issued.delete(credential);
  }

  /** What it stands for, once, only for its own stream and its own relay; null for anything else. */
  redeem(credential: string, streamId: string): RelayGrant | null {
    const entry = this.issued.get(credential);
    if (!entry || entry.streamId !== streamId || !entry.holds()) return null;
    this.issued.delete(credential);
    return { keyHash: entry.keyHash, via: entry.via };
  }
}
