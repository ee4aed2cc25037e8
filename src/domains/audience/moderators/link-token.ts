import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../../config/secrets.js';

/** The secret of moderator links, derived so that secrets.json needs no new key. */
export const moderatorLinkSecret = (signingKey: string): Buffer => deriveKey(signingKey, 'svc moderator link v1');

const MOD_ID = /^mod_[a-z0-9]{20}$/;

/**
 * The token in a moderator link: `<mod_id>.<base64url HMAC-SHA256 of the id>`. Derived, not stored,
 * so the owner's listing shows the same link on every read; whether it still works is the
 * moderator record's business (removed or expired: refused).
 */
export class ModeratorLinkTokens {
  constructor(private readonly secret: Buffer) {}

  sign(moderatorId: string): string {
    return `${moderatorId}.${this.mac(moderatorId)}`;
  }

  /** The moderator id the token was signed for, or null when this service did not sign it. */
  read(token: string): string | null {
    const dot = token.indexOf('.');
    const id = token.slice(0, dot);
    if (dot < 0 || !MOD_ID.test(id)) return null;
    // Compared as text: base64url decoding skips stray characters, and only one spelling is ours.
    const given = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.mac(id));
    return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
  }

  private mac(id: string): string {
    return createHmac('sha256', this.secret).update(id).digest('base64url');
  }
}
