import { chmodSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { run } from '../process/run.js';

/** A system user that a server drops to (PostgreSQL and nginx workers refuse or avoid root). */
export interface SystemUser {
  name: string;
  uid: number;
  gid: number;
}

export async function lookupUser(name: string): Promise<SystemUser | null> {
  try {
    const out = await run('id', ['-u', name]);
    const gid = await run('id', ['-g', name]);
    return { name, uid: Number(out.trim()), gid: Number(gid.trim()) };
  } catch {
    return null;
  }
}

/** A server running as `user` must be able to walk down to `dir`; fail early with what to do. */
export function assertReachable(dir: string, user: string, server: string): void {
  let current = dirname(dir);
  while (true) {
    const mode = statSync(current).mode;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `${server} runs as user ${user} and cannot reach ${dir}: ${current} is not searchable by others. ` +
          `Use a data dir outside it (--data-dir /var/lib/svc) or run \`chmod o+x ${current}\``,
      );
    }
    const up = dirname(current);
    if (up === current) return;
    current = up;
  }
}

/** Data dir and folders a server user must traverse (created 0700 by mkdtemp, for example). */
export function openForTraversal(dir: string): void {
  chmodSync(dir, statSync(dir).mode | 0o011);
}
