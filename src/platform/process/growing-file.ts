import { fstatSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** How long a reader that reached the end waits before it looks again (a live stream's frames come every 20-40 ms). */
const POLL_MS = 50;
const CHUNK_BYTES = 256 * 1024;

/**
 * A file another process is still writing, read from its start as it grows (a `tail -f` from
 * byte 0), ending only when told: `finish()` reads what the writer added up to now, then ends.
 * A child reading it on stdin waits while the writer pauses, however long, and sees the end
 * exactly where the file ends.
 */
export class GrowingFile extends Readable {
  private handle: Promise<FileHandle> | null = null;
  private readonly buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private position = 0;
  /** The last read reached the end of what was written: the next waits a moment first. */
  private caughtUp = false;
  private finishing = false;
  private timer: NodeJS.Timeout | null = null;
  /** The open file, once open (by descriptor: the file may be renamed while it is read). */
  private fd: number | null = null;

  constructor(private readonly path: string) {
    super();
  }

  /** The writer is done: what it wrote is read to the end, then the stream ends. */
  finish(): void {
    this.finishing = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.readMore();
    }
  }

  /**
   * Bytes the writer has added that the reader has not been handed yet; null before the file is
   * open. What was handed on but still sits in a pipe (at most a read and a pipe buffer, about
   * 300 KB) counts as read.
   */
  behindBytes(): number | null {
    if (this.fd === null) return null;
    try {
      return Math.max(0, fstatSync(this.fd).size - this.position);
    } catch {
      return null;
    }
  }

  override _read(): void {
    if (this.caughtUp && !this.finishing) this.later();
    else this.readMore();
  }

  private later(): void {
    this.caughtUp = false;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.readMore();
    }, POLL_MS);
  }

  private readMore(): void {
    this.handle ??= open(this.path, 'r');
    this.handle
      .then(async (fh) => {
        this.fd = fh.fd;
        // Read before checking `finishing`: a finish asked during the read still gets what the writer added.
        const finishing = this.finishing;
        const { bytesRead } = await fh.read(this.buffer, 0, CHUNK_BYTES, this.position);
        if (bytesRead > 0) {
          this.position += bytesRead;
          this.caughtUp = bytesRead < CHUNK_BYTES;
          // A copy: the one buffer serves every read.
          this.push(Buffer.from(this.buffer.subarray(0, bytesRead)));
        } else if (finishing) this.push(null);
        else this.later();
      })
      .catch((err: unknown) => this.destroy(err as Error));
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.handle) return callback(err);
    this.handle
      .then((fh) => {
        this.fd = null;
        return fh.close();
      })
      .then(
        () => callback(err),
        () => callback(err),
      );
  }
}
