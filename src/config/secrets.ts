import { existsSync, readFileSync, renameSync, writeFileSync, chmodSync } from 'node:fs';
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
  /** The object storage's access key pair (`svc storage set`); absent without object storage. */
  storage?: { access_key_id: string; secret_access_key: string };
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

/** Replaces the object storage's key pair (null: removes it), keeping the rest; mode 0600. */
export function writeStorageSecrets(dataDir: string, pair: Secrets['storage'] | null): void {
  const path = dataPaths(dataDir).secrets;
  const secrets = readSecrets(dataDir);
  if (pair) secrets.storage = pair;
  else delete secrets.storage;
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
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
