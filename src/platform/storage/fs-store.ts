import { randomBytes } from 'node:crypto';
import { chmod, copyFile, link, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { ObjectStore, StoredObject } from './store.js';

const KEY = /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._\-/]+$/;

/** A key must stay under the root: no `..`, no leading slash, no odd characters. */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`invalid storage key: ${JSON.stringify(key)}`);
  return key;
}

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Objects as files under one folder (the one-box default): keys are paths under it, so the media
 * folder keeps its layout. Writes go to a temporary file beside the object and are renamed over
 * it, which is atomic on one file system: nginx serves the old file or the new one.
 */
export class FsStore implements ObjectStore {
  readonly kind = 'local' as const;

  constructor(
    readonly root: string,
    private readonly options: {
      /**
       * The mode of the folders it makes (mkdir's is cut by the umask). On the origin, nginx's
       * workers write into them too (ingest nodes' media through `/_ingest/`): MEDIA_FOLDER_MODE.
       */
      folderMode?: number;
    } = {},
  ) {}

  pathOf(key: string): string {
    return join(this.root, checkKey(key));
  }

  async put(key: string, body: Buffer | string): Promise<void> {
    await this.replace(key, (tmp) => writeFile(tmp, body));
  }

  /** A second name for the file where it can (same file system: nothing copied), else a copy; the file must not change after. */
  async putFile(key: string, path: string): Promise<void> {
    await this.replace(key, (tmp) =>
      link(path, tmp).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'EXDEV' && err.code !== 'EPERM') throw err;
        return copyFile(path, tmp);
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.pathOf(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async getFile(key: string, path: string): Promise<boolean> {
    try {
      await copyFile(this.pathOf(key), path);
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    // The folder the prefix names (or the one its last part is in): nothing outside it can match.
    const folder =
      prefix.endsWith('/') || prefix === '' ? prefix : dirname(prefix) === '.' ? '' : `${dirname(prefix)}/`;
    const found: StoredObject[] = [];
    for (const path of await this.walk(join(this.root, folder))) {
      const key = relative(this.root, path).split(sep).join('/');
      if (key.startsWith(prefix) && !key.includes('.tmp-')) found.push({ key, bytes: (await stat(path)).size });
    }
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<number> {
    const objects = await this.list(prefix);
    for (const o of objects) await this.delete(o.key);
    if (prefix.endsWith('/') && prefix.length > 1)
      await rm(this.pathOf(prefix.slice(0, -1)), { recursive: true, force: true });
    return objects.length;
  }

  private async replace(key: string, write: (tmp: string) => Promise<void>): Promise<void> {
    const path = this.pathOf(key);
    await this.folder(dirname(path));
    const tmp = `${path}.tmp-${randomBytes(4).toString('hex')}`;
    try {
      await write(tmp);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  private async folder(path: string): Promise<void> {
    const first = await mkdir(path, { recursive: true });
    const mode = this.options.folderMode;
    if (first === undefined || mode === undefined) return;
    for (let dir = path; ; dir = dirname(dir)) {
      await chmod(dir, mode);
      if (dir === first || dir === this.root) return;
    }
  }

  private async walk(dir: string): Promise<string[]> {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isMissing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw err;
    }
    const files: string[] = [];
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) files.push(...(await this.walk(path)));
      else if (e.isFile()) files.push(path);
    }
    return files;
  }
}
