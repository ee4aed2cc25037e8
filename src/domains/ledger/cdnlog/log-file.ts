import { open, type FileHandle } from 'node:fs/promises';

/** An open log file, named by its identity: a renamed file keeps it, a new file at the path does not. */
export interface OpenLog {
  handle: FileHandle;
  /** `<dev>:<inode>`. */
  id: string;
  size: number;
}

/** Opens the file at `path` (identity and size from the open descriptor); null when there is none. */
export async function openLog(path: string): Promise<OpenLog | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const st = await handle.stat({ bigint: true });
    return { handle, id: `${st.dev}:${st.ino}`, size: Number(st.size) };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export interface Chunk {
  /** Complete lines, each ending with `\n`. */
  text: string;
  /** Offset just past the last complete line. */
  end: number;
  /** The batch was cut short: more lines follow. */
  more: boolean;
  /** Everything up to the size seen at open was read: no partly written line is left. */
  idle: boolean;
}

/**
 * Complete lines from `offset`, at most `maxBytes` of them. A last line still being written is
 * left for the next read. A line longer than `maxBytes` (not one of nginx's) is skipped whole.
 */
export async function readLines(log: OpenLog, offset: number, maxBytes: number): Promise<Chunk> {
  const available = Math.max(0, log.size - offset);
  const length = Math.min(available, maxBytes);
  if (length === 0) return { text: '', end: offset, more: false, idle: true };
  const buffer = Buffer.allocUnsafe(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await log.handle.read(buffer, read, length - read, offset + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  const more = length < available;
  const last = read === 0 ? -1 : buffer.lastIndexOf(0x0a, read - 1);
  if (last === -1) {
    // No line ends within a whole batch: skip it rather than stop on it forever.
    if (read === maxBytes) return { text: '', end: offset + read, more, idle: false };
    return { text: '', end: offset, more: false, idle: false };
  }
  const used = last + 1;
  return { text: buffer.toString('utf8', 0, used), end: offset + used, more, idle: used === available };
}
