import { open, type FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';

/** How often the end of a file that has not grown is looked at again. */
const POLL_MS = 40;
const CHUNK_BYTES = 256 * 1024;

/**
 * A file another process is still writing, read from its start as it grows (a `tail -f` from
 * byte 0), ending only when told: `finish()` reads what the writer added up to now, then ends.
 * A child reading it on stdin waits while the writer pauses, however long, and sees the end
 * exactly where the file ends.
 */
export class GrowingFile extends Readable {
  private handle: Promise<FileHandle> | null = null;
  private position = 0;
  private finishing = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly path: string) {
    super();
  }

  /** The writer is done: what it wrote is read to the end, then the stream ends. */
  finish(): void {
    this.finishing = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this._read();
    }
  }

  override _read(): void {
    this.handle ??= open(this.path, 'r');
    this.handle
      .then(async (fh) => {
        const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
        // Read before checking `finishing`: a finish asked during the read still gets what the writer added.
        const finishing = this.finishing;
        const { bytesRead } = await fh.read(buffer, 0, CHUNK_BYTES, this.position);
        if (bytesRead > 0) {
          this.position += bytesRead;
          this.push(buffer.subarray(0, bytesRead));
        } else if (finishing) this.push(null);
        else this.timer = setTimeout(() => ((this.timer = null), this._read()), POLL_MS);
      })
      .catch((err: unknown) => this.destroy(err as Error));
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.handle) return callback(err);
    this.handle.then((fh) => fh.close()).then(() => callback(err), () => callback(err));
  }
}
