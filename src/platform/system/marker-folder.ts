import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A set of names nginx looks up per request with `-f`, one empty file each: the streams whose
 * public embed address is refused (docs/decisions.md, "Hardening: a closed player stops its shared
 * address"), the edges allowed to fetch from the origin ("Edge tier"). No API round trip per
 * request, no reload (nginx-rtmp cannot take one), and the set outlives a restart of either.
 * Names come from the database, never from a request.
 */
export class MarkerFolder {
  constructor(private readonly dir: string) {}

  set(name: string, present: boolean): void {
    const file = join(this.dir, name);
    if (!present) return rmSync(file, { force: true });
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(file, '');
  }

  /** The names in the folder now (none when it does not exist yet). */
  names(): string[] {
    try {
      return readdirSync(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
  }

  /** The folder then names exactly these: a lost write heals, names no longer wanted go. */
  reconcile(names: readonly string[]): void {
    mkdirSync(this.dir, { recursive: true });
    const wanted = new Set(names);
    // Run every few seconds: only what differs touches the disk.
    const present = new Set(readdirSync(this.dir));
    for (const name of present) if (!wanted.has(name)) rmSync(join(this.dir, name), { force: true });
    for (const id of wanted) if (!present.has(id)) writeFileSync(join(this.dir, id), '');
  }
}
