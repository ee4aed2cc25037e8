import { open, rm, writeFile, mkdir, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Logger } from '../../../core/logger.js';
import { recordedSessions } from '../../../platform/nginx/record.js';
import { closedKey, pieceKey } from '../../../platform/storage/session-pieces.js';
import type { Spool } from '../../../platform/storage/spool.js';

export interface SessionShipperDeps {
  spool: Pick<Spool, 'enqueue'>;
  /** Where nginx-rtmp records publish sessions (media/ingest). */
  recordDir: string;
  /** Where a slice is written before the spool takes it (on the spool's file system). */
  workDir: string;
  sliceSeconds: number;
  logger: Logger;
}

/** One session file being shipped: read by descriptor, so nginx's renames (setAsideSessions) do not matter. */
interface Shipping {
  /** Its name when first seen: the name its pieces carry. */
  file: string;
  handle: FileHandle;
  offset: number;
}

/**
 * Ships the publish sessions nginx-rtmp records on this node to object storage while they grow:
 * every `sliceSeconds`, what was added since the last slice goes through the spool as the next
 * piece (platform/storage/session-pieces.ts), and once the stream stops here, the rest and a
 * `closed` marker. A node that dies loses at most the last slice; the recorder joins the pieces.
 */
export class SessionShipper {
  private readonly streams = new Map<string, { earlier: Set<string>; open: Map<string, Shipping> }>();
  private timer: NodeJS.Timeout | null = null;
  /** One pass at a time: a slow spool (a full disk) never piles passes up. */
  private pass: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SessionShipperDeps) {}

  /**
   * Sessions of this stream that start from now on are shipped (called before nginx opens the
   * session's file); `existing: true` ships the files already there too (a stream found live).
   */
  start(streamId: string, opts: { existing?: boolean } = {}): void {
    if (this.streams.has(streamId)) return;
    const earlier = new Set(
      opts.existing ? [] : recordedSessions(this.deps.recordDir, streamId).map((f) => basename(f)),
    );
    this.streams.set(streamId, { earlier, open: new Map() });
    this.timer ??= setInterval(() => void this.tick(), this.deps.sliceSeconds * 1000);
  }

  /** The stream stopped on this node: what its sessions hold goes up, each is marked closed. */
  async stop(streamId: string): Promise<void> {
    const state = this.streams.get(streamId);
    if (!state) return;
    await this.queue(async () => {
      await this.slice(streamId);
      for (const s of state.open.values()) {
        try {
          const marker = join(this.deps.workDir, `${streamId}-${s.offset}.closed`);
          await writeFile(marker, '');
          await this.deps.spool.enqueue(closedKey(streamId, s.file), marker);
          await rm(marker, { force: true });
        } catch (err) {
          this.deps.logger.error({ err, stream_id: streamId, file: s.file }, 'session could not be marked closed');
        }
        await s.handle.close().catch(() => undefined);
      }
      this.streams.delete(streamId);
    });
  }

  /** Follows a set of streams (the one-box appliance: this node's live workers). */
  async sync(ids: string[]): Promise<void> {
    for (const id of ids) this.start(id, { existing: true });
    for (const id of [...this.streams.keys()]) if (!ids.includes(id)) await this.stop(id);
  }

  async stopAll(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const id of [...this.streams.keys()]) await this.stop(id);
  }

  private tick(): Promise<void> {
    return this.queue(async () => {
      for (const id of this.streams.keys()) await this.slice(id);
    });
  }

  private queue(work: () => Promise<void>): Promise<void> {
    this.pass = this.pass
      .then(work)
      .catch((err: unknown) => this.deps.logger.error({ err }, 'session shipping failed'));
    return this.pass;
  }

  /** Ships what each session of the stream added since its last slice. */
  private async slice(streamId: string): Promise<void> {
    const state = this.streams.get(streamId);
    if (!state) return;
    for (const path of recordedSessions(this.deps.recordDir, streamId)) {
      const file = basename(path);
      if (state.earlier.has(file) || [...state.open.values()].some((s) => s.file === file)) continue;
      // A file set aside (renamed) is already open under its first name: match by inode.
      const handle = await open(path, 'r').catch(() => null);
      if (!handle) continue;
      const ino = (await handle.stat()).ino;
      const known = await Promise.all([...state.open.values()].map(async (s) => (await s.handle.stat()).ino));
      if (known.includes(ino)) {
        state.earlier.add(file);
        await handle.close();
        continue;
      }
      state.open.set(file, { file, handle, offset: 0 });
    }
    await mkdir(this.deps.workDir, { recursive: true });
    for (const s of state.open.values()) {
      const size = (await s.handle.stat()).size;
      if (size <= s.offset) continue;
      const bytes = Buffer.allocUnsafe(size - s.offset);
      const { bytesRead } = await s.handle.read(bytes, 0, bytes.length, s.offset);
      const tmp = join(this.deps.workDir, `${streamId}-${s.offset}.slice`);
      await writeFile(tmp, bytes.subarray(0, bytesRead));
      try {
        await this.deps.spool.enqueue(pieceKey(streamId, s.file, s.offset), tmp);
        s.offset += bytesRead;
      } catch (err) {
        // The spool is full: the bytes stay in nginx's file and go with a later slice.
        this.deps.logger.warn({ err, stream_id: streamId, file: s.file }, 'session slice not spooled; retried');
      } finally {
        await rm(tmp, { force: true });
      }
    }
  }
}
