import { randomBytes } from 'node:crypto';

/**
 * One-time credentials for the appliance's own relays into nginx (WHIP's ffmpeg): a relay
 * publishes with one instead of the stream's key, because every local user can read a process's
 * command line (docs/decisions.md, "Hardening: the WHIP relay publishes with a one-time credential").
 * A credential stands for the key the relay's session was admitted with, for one stream, and is
 * spent by its first publish; the relay's next start gets a new one.
 */
export class RelayCredentials {
  private readonly issued = new Map<string, { streamId: string; key: string }>();

  /** A credential for one publish of `streamId`, standing for `key`. */
  issue(streamId: string, key: string): string {
    const credential = randomBytes(24).toString('base64url');
    this.issued.set(credential, { streamId, key });
    return credential;
  }

  /** The relay that held it exited or its session closed: it can no longer be spent. */
  withdraw(credential: string): void {
    this.issued.delete(credential);
  }

  /** The key it stands for, once, and only for its own stream; null for anything else. */
  redeem(credential: string, streamId: string): string | null {
    const entry = this.issued.get(credential);
    if (!entry || entry.streamId !== streamId) return null;
    this.issued.delete(credential);
    return entry.key;
  }
}
