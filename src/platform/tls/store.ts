import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { reason, TlsError } from './errors.js';

/**
 * The files of a tls dir. nginx reads one: `current.pem`, the key followed by the full chain,
 * named by both `ssl_certificate` and `ssl_certificate_key`. One file replaced by one rename is
 * the only layout in which no reader can pair a new chain with an old key (two files are two
 * renames, and a reader between them sees a mismatched pair); and because the ACME certificate
 * key is kept across renewals, even a reader that opens the file twice (nginx reads the
 * certificate, then the key) gets a matching pair across a renewal.
 */
export interface TlsFiles {
  /** Key + full chain, 0600 (0640 to nginx's workers' group): what nginx serves. */
  certificate: string;
  /** The ACME account's key, made once and kept (the account is found again by it). */
  accountKey: string;
  /** The certificate's key for ACME orders, made once and kept across renewals. */
  certificateKey: string;
  /** What `svc status` reads from another process (`readTlsState`). */
  state: string;
  /** Where http-01 token files are written, served at `/.well-known/acme-challenge/`. */
  challengeDir: string;
}

export function tlsFiles(tlsDir: string): TlsFiles {
  return {
    certificate: join(tlsDir, 'current.pem'),
    accountKey: join(tlsDir, 'acme-account-key.pem'),
    certificateKey: join(tlsDir, 'acme-certificate-key.pem'),
    state: join(tlsDir, 'state.json'),
    challengeDir: join(tlsDir, 'acme-challenge'),
  };
}

/**
 * Replaces `file` with `content` so that a reader sees the old file or the new one, whole:
 * written and flushed under a temporary name in the same folder, then renamed over it.
 */
export async function writeAtomically(file: string, content: string, mode: number, gid?: number): Promise<void> {
  mkdirSync(dirname(file), { recursive: true, mode: 0o755 });
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(tmp, 'wx', mode);
    try {
      // Owner and mode are set before the content is written, so the secret is never readable by more.
      if (gid !== undefined) await handle.chown(-1, gid);
      await handle.chmod(mode);
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, file);
  } catch (error) {
    await rm(tmp, { force: true });
    throw new TlsError(`cannot write ${file}: ${reason(error)}`);
  }
}

/** The text of `file`, or null when there is none. */
export async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new TlsError(`cannot read ${file}: ${reason(error)}`);
  }
}
