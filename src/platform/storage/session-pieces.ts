import { posix } from 'node:path';
import type { ObjectStore } from './store.js';

/**
 * Keys of a recorded publish session shipped in byte slices while it grows:
 * `sessions/<stream>/<session file>/<byte offset, 12 digits>`, then an empty `.../closed` once the
 * file is complete. Named by offset, a slice shipped again (after a restart) covers the same bytes
 * whatever its length: joinPieces skips what an earlier slice already gave.
 */
export const sessionsPrefix = (streamId: string): string => `sessions/${streamId}/`;
export const pieceKey = (streamId: string, file: string, offset: number): string =>
  `${sessionsPrefix(streamId)}${file}/${String(offset).padStart(12, '0')}`;
export const closedKey = (streamId: string, file: string): string => `${sessionsPrefix(streamId)}${file}/closed`;

export interface StoredSession {
  /** The session file's name (`<stream>-<unix time>.flv`). */
  file: string;
  /** Slices in order of their offset, each with the store that holds it. */
  pieces: { key: string; offset: number; bytes: number; store: ObjectStore }[];
  /** Its last slice is in: nothing more will come. */
  closed: boolean;
}

/**
 * The sessions of a stream the stores hold, by file name (publishing order). One session may have
 * pieces in several: a node whose storage changed ships what its spool held to the new one.
 */
export async function storedSessions(stores: ObjectStore[], streamId: string): Promise<StoredSession[]> {
  const byFile = new Map<string, StoredSession>();
  for (const store of stores)
    for (const o of await store.list(sessionsPrefix(streamId))) {
      const rest = o.key.slice(sessionsPrefix(streamId).length);
      const file = posix.dirname(rest);
      const part = posix.basename(rest);
      if (file === '.' || file.includes('/')) continue;
      const session = byFile.get(file) ?? { file, pieces: [], closed: false };
      if (part === 'closed') session.closed = true;
      else if (/^\d{12}$/.test(part)) session.pieces.push({ key: o.key, offset: Number(part), bytes: o.bytes, store });
      byFile.set(file, session);
    }
  return [...byFile.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/**
 * The session's bytes, written to `write` in order: each slice from where the bytes so far end
 * (a slice shipped twice overlaps); a gap (a slice lost) is an error, never silent.
 */
export async function joinPieces(session: StoredSession, write: (bytes: Buffer) => Promise<void>): Promise<number> {
  let end = 0;
  for (const piece of [...session.pieces].sort((a, b) => a.offset - b.offset)) {
    if (piece.offset + piece.bytes <= end) continue;
    if (piece.offset > end) throw new Error(`session ${session.file}: bytes ${end}-${piece.offset} are missing`);
    const bytes = await piece.store.get(piece.key);
    if (!bytes) throw new Error(`session ${session.file}: piece ${piece.key} vanished`);
    await write(bytes.subarray(end - piece.offset));
    end = piece.offset + bytes.length;
  }
  return end;
}
