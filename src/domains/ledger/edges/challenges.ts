import { mkdirSync } from 'node:fs';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** An ACME token is base64url (the preflight's probe too): nothing else names a file here. */
export const ACME_TOKEN = '^[A-Za-z0-9_-]{1,256}$';
const TOKEN = new RegExp(ACME_TOKEN);
/** A token's answer lives as long as a CA takes to validate it; one left behind goes after this. */
const KEEP_MS = 3_600_000;

/**
 * The http-01 answers of edges that share one name (docs/decisions.md, "Edges over https"): the
 * edge that orders puts each token here through the edge API, and whichever edge the CA's fetch
 * reaches answers a token it does not hold by asking the origin. The origin's own tokens (its
 * certificate may name the edges' host too) are answered from its challenge folder.
 */
export class EdgeChallenges {
  constructor(
    private readonly folder: string,
    private readonly originFolder: string,
    private readonly now: () => Date,
  ) {}

  async put(token: string, keyAuthorization: string): Promise<void> {
    mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    await this.prune();
    await writeFile(this.file(token), keyAuthorization, { mode: 0o600 });
  }

  async remove(token: string): Promise<void> {
    await rm(this.file(token), { force: true });
  }

  /** The answer for `token`, an edge's or the origin's own; null when nobody is solving it. */
  async get(token: string): Promise<string | null> {
    for (const folder of [this.folder, this.originFolder]) {
      const text = await readFile(join(folder, checked(token)), 'utf8').catch(() => null);
      if (text !== null) return text;
    }
    return null;
  }

  /** Tokens of orders that died (an edge killed mid-order) do not pile up. */
  private async prune(): Promise<void> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    const old = this.now().getTime() - KEEP_MS;
    for (const name of names) {
      const file = join(this.folder, name);
      const info = await stat(file).catch(() => null);
      if (info && info.mtimeMs < old) await rm(file, { force: true });
    }
  }

  private file(token: string): string {
    return join(this.folder, checked(token));
  }
}

function checked(token: string): string {
  // The routes' schemas refuse anything else first; this keeps a path out of the folder regardless.
  if (!TOKEN.test(token)) throw new Error(`not an ACME token: ${token.slice(0, 40)}`);
  return token;
}
