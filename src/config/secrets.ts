import { existsSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { createHmac, randomBytes } from 'node:crypto';
import { dataPaths } from './paths.js';

/** Generated once by `svc init`; the file is mode 0600. */
export interface Secrets {
  /** Password of the managed PostgreSQL superuser `svc`. */
  postgres_password: string;
  /** Key for signing playback addresses and other appliance-made tokens. */
  signing_key: string;
  /** Key for encrypting stored idempotent responses (they hold stream keys). */
  data_key: string;
}

/**
 * A key for one purpose, derived from the signing key (HMAC-SHA256 of the purpose's label): each
 * part gets a key of its own, and secrets.json needs no new entry.
 */
export const deriveKey = (signingKey: string, purpose: string): Buffer =>
  createHmac('sha256', signingKey).update(purpose).digest();

const generate = (): Secrets => ({
  postgres_password: randomBytes(24).toString('base64url'),
  signing_key: randomBytes(32).toString('base64url'),
  data_key: randomBytes(32).toString('base64url'),
});

export function readSecrets(dataDir: string): Secrets {
  const path = dataPaths(dataDir).secrets;
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`svc init --data-dir ${dataDir}\``);
  return JSON.parse(readFileSync(path, 'utf8')) as Secrets;
}

/** Creates missing secrets, keeps existing ones (re-running init never rotates them). */
export function ensureSecrets(dataDir: string): Secrets {
  const path = dataPaths(dataDir).secrets;
  const existing = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Partial<Secrets>) : {};
  const secrets = { ...generate(), ...existing };
  writeFileSync(path, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  chmodSync(path, 0o600);
  return secrets;
}
