import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signatures (spec: Events): `v1,<base64 HMAC-SHA256>` over
 * `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded part after `whsec_`.
 */

export const SECRET_PREFIX = 'whsec_';

/** 32 random bytes, base64: within the 24-64 bytes Standard Webhooks libraries accept. */
export const newSigningSecret = (): string => SECRET_PREFIX + randomBytes(32).toString('base64');

export function sign(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** During a rotation both secrets sign: the values are space separated, the newest first. */
export const signatureHeader = (secrets: string[], id: string, timestamp: number, body: string): string =>
  secrets.map((s) => sign(s, id, timestamp, body)).join(' ');

/** The three headers of one attempt; `timestamp` is Unix seconds of this attempt. */
export function webhookHeaders(secrets: string[], id: string, timestamp: number, body: string): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, id, timestamp, body),
  };
}
