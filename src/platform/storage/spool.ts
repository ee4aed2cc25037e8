import { copyFile, link, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pRetry from 'p-retry';
import type { Logger } from '../../core/logger.js';
import type { ObjectStore, PutOptions } from './store.js';

/** What `svc status` and `/metrics` show of the spool and the store behind it. */
export interface SpoolReadings {
  /** The store answered the last upload or probe; null before the first. */
  up: boolean | null;
  items: number;
  bytes: number;
  maxBytes: number;
  /** Age of the oldest waiting item; 0 when empty. */
  oldestSeconds: number;
  lastError: string | null;
  uploads: number;
  uploadedBytes: number;
  failedAttempts: number;
}

export interface SpoolOptions {
  /** `<data dir>/spool`: on the same file system as the media, so a file is hard-linked, not copied. */
  dir: string;
  store: ObjectStore;
  maxBytes: number;
  logger: Logger;
  /** Backoff between tries of one upload (default 1 s doubling to 30 s; tests shorten it). */
  retry?: { minTimeoutMs: number; maxTimeoutMs: number };
  /** An idle spool asks the store whether it answers this often (default 15 s), for status and metrics. */
  probeMs?: number;
  now?: () => number;
}

export interface SpoolItemOptions extends PutOptions {
  /** A local file removed once the object is in the store (a recording's MP4 the origin served meanwhile). */
  removeAfter?: string;
}

interface Item extends SpoolItemOptions {
  seq: number;
  key: string;
  bytes: number;
  /** When it was spooled (ms since the epoch). */
  at: number;
}

/** The spool cannot take the item: its byte bound is reached. Nothing was dropped; the caller keeps its file. */
export class SpoolFullError extends Error {
  constructor(
    readonly bytes: number,
    readonly maxBytes: number,
    detail: string,
  ) {
    super(
      `the storage spool is full (${mb(bytes)} of ${mb(maxBytes)} MB waiting; ${detail}): ` +
        'fix the object storage (svc status shows its last error) or raise storage.spool_max_mb',
    );
  }
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const SEQ = /^(\d{12})\.json$/;
const name = (seq: number) => String(seq).padStart(12, '0');

/**
 * A bounded queue on disk in front of a store, for writes that must not be lost (recordings, the
 * pieces of publish sessions): each file is hard-linked (or copied) into the spool folder with a
 * small JSON beside it, then uploaded in order, retried with backoff for as long as it takes. The
 * folder is read back on start, so a restart loses nothing. Full: new items are refused with
 * SpoolFullError, never dropped.
 */
export class Spool {
  private queue: Item[] = [];
  private nextSeq = 1;
  private bytes = 0;
  private up: boolean | null = null;
  private lastError: string | null = null;
  private uploads = 0;
  private uploadedBytes = 0;
  private failedAttempts = 0;
  /** The item being uploaded, and the promise of its upload. */
  private current: { item: Item; done: Promise<void>; abort: AbortController } | null = null;
  private readonly stopping = new AbortController();
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;
  private probeTimer: NodeJS.Timeout | null = null;
  private readonly now: () => number;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(private readonly opts: SpoolOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Reads back what an earlier run left (in order), then uploads in the background. */
  async start(): Promise<void> {
    await mkdir(this.opts.dir, { recursive: true });
    const files = await readdir(this.opts.dir);
    for (const f of files.sort()) {
      const m = SEQ.exec(f);
      if (!m) continue;
      try {
        const item = JSON.parse(await readFile(join(this.opts.dir, f), 'utf8')) as Item;
        item.bytes = (await stat(this.dataPath(item.seq))).size;
        this.queue.push(item);
        this.bytes += item.bytes;
      } catch (err) {
        // A record without its data (or unreadable) cannot be uploaded: say so, keep the start going.
        this.opts.logger.error({ err, file: f }, 'storage spool: an unreadable item is set aside');
        await rename(join(this.opts.dir, f), join(this.opts.dir, `${f}.broken`)).catch(() => undefined);
      }
    }
    const kept = new Set(this.queue.map((i) => name(i.seq)));
    // Data whose record was never written (a crash while spooling): the caller still has its file.
    for (const f of files)
      if (f.endsWith('.data') || f.includes('.tmp')) {
        if (!kept.has(f.slice(0, 12))) await rm(join(this.opts.dir, f), { force: true });
      }
    this.nextSeq = Math.max(0, ...this.queue.map((i) => i.seq)) + 1;
    if (this.queue.length)
      this.opts.logger.info({ items: this.queue.length, bytes: this.bytes }, 'storage spool: resuming uploads');
    this.loop = this.run();
    this.probeTimer = setInterval(() => void this.probe(), this.opts.probeMs ?? 15_000);
    this.probeTimer.unref();
    void this.probe();
  }

  /**
   * Takes `file` into the spool under `key` (a hard link when it can: the caller may delete or keep
   * its own name); resolves once it is safe on disk, before the upload.
   */
  async enqueue(key: string, file: string, options: SpoolItemOptions = {}): Promise<void> {
    const size = (await stat(file)).size;
    if (this.bytes + size > this.opts.maxBytes) {
      const err = new SpoolFullError(this.bytes, this.opts.maxBytes, `refused ${key}`);
      this.opts.logger.error({ key, bytes: size, last_error: this.lastError }, err.message);
      throw err;
    }
    const seq = this.nextSeq++;
    const data = this.dataPath(seq);
    try {
      await link(file, data);
    } catch {
      await copyFile(file, data);
    }
    const item: Item = { seq, key, bytes: size, at: this.now(), ...options };
    const record = join(this.opts.dir, `${name(seq)}.json`);
    await writeFile(`${record}.tmp`, JSON.stringify(item));
    await rename(`${record}.tmp`, record);
    this.queue.push(item);
    this.bytes += size;
    this.wake?.();
  }

  /**
   * Drops waiting items under `prefix` (their objects are being deleted) and waits for one being
   * uploaded, so that a deletion that follows is not undone by an upload finishing after it.
   */
  async discard(prefix: string): Promise<number> {
    const dropped = this.queue.filter((i) => i.key.startsWith(prefix) && i !== this.current?.item);
    this.queue = this.queue.filter((i) => !dropped.includes(i));
    for (const item of dropped) await this.forget(item);
    const current = this.current;
    if (current?.item.key.startsWith(prefix)) {
      // Given up, not awaited: during an outage it would never end.
      current.abort.abort();
      await current.done.catch(() => undefined);
      return dropped.length + 1;
    }
    return dropped.length;
  }

  /** Whether anything under `prefix` still waits to be uploaded. */
  holds(prefix: string): boolean {
    return this.queue.some((i) => i.key.startsWith(prefix));
  }

  /** Resolves when nothing waits (tests, the bench). */
  idle(): Promise<void> {
    if (!this.queue.length) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  readings(): SpoolReadings {
    const oldest = this.queue[0];
    return {
      up: this.up,
      items: this.queue.length,
      bytes: this.bytes,
      maxBytes: this.opts.maxBytes,
      oldestSeconds: oldest ? Math.max(0, Math.round((this.now() - oldest.at) / 1000)) : 0,
      lastError: this.lastError,
      uploads: this.uploads,
      uploadedBytes: this.uploadedBytes,
      failedAttempts: this.failedAttempts,
    };
  }

  /** Stops uploading; what waits stays on disk for the next start. */
  async stop(): Promise<void> {
    this.stopping.abort();
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.wake?.();
    await this.loop;
  }

  private dataPath(seq: number): string {
    return join(this.opts.dir, `${name(seq)}.data`);
  }

  private async run(): Promise<void> {
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      const item = this.queue[0];
      if (!item) {
        for (const resolve of this.idleWaiters.splice(0)) resolve();
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = null;
        continue;
      }
      const abort = new AbortController();
      const done = this.upload(item, AbortSignal.any([signal, abort.signal]));
      this.current = { item, done, abort };
      let uploaded = true;
      try {
        await done;
      } catch {
        // Stopped: the item stays on disk for the next start. Discarded: it goes.
        if (signal.aborted) return;
        uploaded = false;
      } finally {
        this.current = null;
      }
      this.queue = this.queue.filter((i) => i !== item);
      await this.forget(item);
      if (uploaded && item.removeAfter) await rm(item.removeAfter, { force: true });
    }
  }

  private async upload(item: Item, signal: AbortSignal): Promise<void> {
    const retry = this.opts.retry ?? { minTimeoutMs: 1000, maxTimeoutMs: 30_000 };
    await pRetry(() => this.opts.store.putFile(item.key, this.dataPath(item.seq), item), {
      forever: true,
      factor: 2,
      minTimeout: retry.minTimeoutMs,
      maxTimeout: retry.maxTimeoutMs,
      signal,
      onFailedAttempt: (err) => {
        this.failedAttempts++;
        const wasUp = this.up;
        this.up = false;
        this.lastError = err.message;
        // The first failure of an outage is a warning; the rest are counted, not logged each time.
        if (wasUp !== false)
          this.opts.logger.warn(
            { err, key: item.key, waiting_items: this.queue.length, waiting_bytes: this.bytes },
            'object storage unreachable: uploads are spooled on disk and retried',
          );
      },
    });
    if (this.up === false) this.opts.logger.info({ waiting_items: this.queue.length }, 'object storage answers again');
    this.up = true;
    this.uploads++;
    this.uploadedBytes += item.bytes;
  }

  /** While nothing is uploading, a probe keeps `up` current. */
  private async probe(): Promise<void> {
    if (this.current || !this.opts.store.check || this.stopping.signal.aborted) return;
    try {
      await this.opts.store.check();
      if (this.up === false) this.opts.logger.info('object storage answers again');
      this.up = true;
    } catch (err) {
      if (this.up !== false) this.opts.logger.warn({ err }, 'object storage unreachable');
      this.up = false;
      this.lastError = (err as Error).message;
    }
  }

  private async forget(item: Item): Promise<void> {
    this.bytes -= item.bytes;
    await rm(join(this.opts.dir, `${name(item.seq)}.json`), { force: true });
    await rm(this.dataPath(item.seq), { force: true });
  }
}
