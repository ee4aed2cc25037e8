import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The streams whose public embed address nginx refuses: one empty file each, in a folder that
 * nginx looks into (`-f`) on public requests only. No API round trip per request, and the
 * refusal outlives a restart of either (docs/decisions.md, "Hardening: a closed player stops its
 * shared address"). Names are stream ids from the database, never from a request.
 */
export class PublicRefusals {
  constructor(private readonly dir: string) {}

  set(streamId: string, refused: boolean): void {
    const file = join(this.dir, streamId);
    if (!refused) return rmSync(file, { force: true });
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(file, '');
  }

  /** The folder then names exactly these streams: a lost write heals, finished streams' files go. */
  reconcile(refused: readonly string[]): void {
    mkdirSync(this.dir, { recursive: true });
    const wanted = new Set(refused);
    // Run every few seconds: only what differs touches the disk.
    const present = new Set(readdirSync(this.dir));
    for (const name of present) if (!wanted.has(name)) rmSync(join(this.dir, name), { force: true });
    for (const id of wanted) if (!present.has(id)) writeFileSync(join(this.dir, id), '');
  }
}
