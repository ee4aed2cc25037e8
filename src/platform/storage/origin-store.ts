import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { dirname } from 'node:path';
import { checkKey } from './fs-store.js';
import type { ObjectStore, StoredObject } from './store.js';

export interface OriginStoreOptions {
  /** The origin's CDN address (`http://10.0.0.1:8081`): its nginx serves `/_ingest/<key>`. */
  url: string;
  /** This node's credential (`nodeCredential(nodeKey(signing_key), node id)`), sent as `X-Svc-Node`. */
  credential: string;
  /** Each call's limit, from its start to the end of its answer. */
  timeoutMs?: number;
  /** The CA (PEM) the origin's certificate chains to, when it is not a public one. */
  ca?: string;
}

export const ORIGIN_STORE_TIMEOUT_MS = 10_000;

/** A call the origin refused or did not answer in time; `status` null when no answer came. */
export class OriginStoreError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** One entry of nginx's `autoindex_format json` listing. */
interface IndexEntry {
  name: string;
  type: 'file' | 'directory' | 'other';
  size?: number;
}

const WHY: Record<number, string> = {
  403: 'refused: this node is not allowed (forged or removed credential) or the key is outside origin/, thumbs/, sessions/',
  413: 'refused: larger than the origin takes',
};

/**
 * The primary's media folder over HTTP, from an ingest node (docs/decisions.md, "Ingest nodes:
 * media to the origin"): nginx's WebDAV PUT and DELETE, GET, and its JSON folder listing on the
 * origin's `/_ingest/` location. One keep-alive connection pool; every call has a time limit and
 * fails once, clearly: callers decide whether and when to try again.
 */
export class OriginStore implements ObjectStore {
  readonly kind = 'origin' as const;
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private readonly timeoutMs: number;

  constructor(private readonly o: OriginStoreOptions) {
    this.base = new URL('/_ingest/', o.url);
    const https = this.base.protocol === 'https:';
    if (!https && this.base.protocol !== 'http:') throw new Error(`origin url must be http or https: ${o.url}`);
    const agentOptions = { keepAlive: true, maxSockets: 16 };
    this.agent = https
      ? new HttpsAgent({ ...agentOptions, ...(o.ca ? { ca: o.ca } : {}) })
      : new HttpAgent(agentOptions);
    this.timeoutMs = o.timeoutMs ?? ORIGIN_STORE_TIMEOUT_MS;
  }

  async put(key: string, body: Buffer | string): Promise<void> {
    await this.call('PUT', checkKey(key), [201, 204], typeof body === 'string' ? Buffer.from(body) : body);
  }

  /** Read whole, then sent: segments and session pieces are a few megabytes. */
  async putFile(key: string, path: string): Promise<void> {
    await this.put(key, await readFile(path));
  }

  async get(key: string): Promise<Buffer | null> {
    const { status, body } = await this.call('GET', checkKey(key), [200, 404]);
    return status === 404 ? null : body;
  }

  async getFile(key: string, path: string): Promise<boolean> {
    const found = await this.get(key);
    if (found === null) return false;
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.tmp-${randomBytes(4).toString('hex')}`;
    try {
      await writeFile(tmp, found);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    return true;
  }

  /** Walks nginx's listings from the folder the prefix names (or the one its last part is in). */
  async list(prefix: string): Promise<StoredObject[]> {
    const folder = prefix.slice(0, prefix.lastIndexOf('/') + 1);
    if (folder === '') throw new Error(`origin store lists within a folder (origin/, thumbs/, sessions/): ${prefix}`);
    const found: StoredObject[] = [];
    await this.walk(folder, prefix, found);
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    await this.call('DELETE', checkKey(key), [200, 204, 404]);
  }

  /** A folder goes in one DELETE (nginx removes it whole); another prefix object by object. */
  async deletePrefix(prefix: string): Promise<number> {
    const objects = await this.list(prefix);
    if (prefix.endsWith('/')) await this.call('DELETE', checkKey(prefix.slice(0, -1)) + '/', [200, 204, 404]);
    else for (const o of objects) await this.delete(o.key);
    return objects.length;
  }

  /** Closes the idle connections. */
  close(): void {
    this.agent.destroy();
  }

  private async walk(folder: string, prefix: string, found: StoredObject[]): Promise<void> {
    const { status, body } = await this.call('GET', checkKey(folder.slice(0, -1)) + '/', [200, 404]);
    if (status === 404) return;
    for (const entry of JSON.parse(body.toString('utf8')) as IndexEntry[]) {
      const key = `${folder}${entry.name}`;
      // Another writer's temporary file (FsStore's, on the origin itself) is no object yet.
      if (entry.type === 'file' && key.startsWith(prefix) && !entry.name.includes('.tmp-'))
        found.push({ key, bytes: entry.size ?? 0 });
      else if (entry.type === 'directory' && (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)))
        await this.walk(`${key}/`, prefix, found);
    }
  }

  private call(
    method: 'GET' | 'PUT' | 'DELETE',
    path: string,
    expected: number[],
    body?: Buffer,
  ): Promise<{ status: number; body: Buffer }> {
    const url = new URL(path, this.base);
    const what = `origin store ${method} ${path}`;
    return new Promise((resolve, reject) => {
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(url, {
        method,
        agent: this.agent,
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: { 'X-Svc-Node': this.o.credential, ...(body ? { 'Content-Length': body.length } : {}) },
      });
      req.on('error', (err: Error) => {
        const timedOut = err.name === 'AbortError';
        const why = timedOut ? `no answer within ${this.timeoutMs} ms` : err.message;
        reject(new OriginStoreError(`${what}: ${why}`, null));
      });
      req.on('response', (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err: Error) => reject(new OriginStoreError(`${what}: ${err.message}`, null)));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          if (expected.includes(status)) return resolve({ status, body: Buffer.concat(chunks) });
          const reason = WHY[status] ?? res.statusMessage ?? 'unexpected answer';
          reject(new OriginStoreError(`${what}: ${status} ${reason}`, status));
        });
      });
      req.end(body);
    });
  }
}
