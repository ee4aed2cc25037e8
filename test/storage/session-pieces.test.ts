import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FsStore } from '../../src/platform/storage/fs-store.js';
import { closedKey, joinPieces, pieceKey, storedSessions } from '../../src/platform/storage/session-pieces.js';

const dirs: string[] = [];
const fresh = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-pieces-'));
  dirs.push(dir);
  return new FsStore(dir);
};

async function joined(stores: FsStore[], streamId: string): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const session of await storedSessions(stores, streamId)) {
    const parts: Buffer[] = [];
    await joinPieces(session, async (bytes) => void parts.push(bytes));
    out.push(Buffer.concat(parts));
  }
  return out;
}

test('sessions are joined from the bucket and the origin, a session split over both included', async () => {
  const [bucket, origin] = [fresh(), fresh()];
  const bytes = Buffer.from('0123456789abcdef');
  // One node shipped its session to the origin; another to the bucket, and its storage changed
  // mid-session: its spool sent the rest (and a slice again, overlapping) to the other store.
  await origin.put(pieceKey('str_a', 'str_a-100.flv', 0), bytes.subarray(0, 8));
  await origin.put(pieceKey('str_a', 'str_a-100.flv', 8), bytes.subarray(8));
  await origin.put(closedKey('str_a', 'str_a-100.flv'), '');
  await bucket.put(pieceKey('str_a', 'str_a-200.flv', 0), bytes.subarray(0, 6));
  await origin.put(pieceKey('str_a', 'str_a-200.flv', 4), bytes.subarray(4, 12));
  await bucket.put(pieceKey('str_a', 'str_a-200.flv', 12), bytes.subarray(12));

  const sessions = await storedSessions([bucket, origin], 'str_a');
  assert.equal(
    sessions.map((s) => [s.file, s.closed, s.pieces.length]),
    [
      ['str_a-100.flv', true, 2],
      ['str_a-200.flv', false, 3],
    ],
  );
  assert.equal(
    (await joined([bucket, origin], 'str_a')).map((b) => b.toString()),
    [bytes.toString(), bytes.toString()],
  );
  // Read from one store only, the split session has a hole: an error, never a silent gap.
  try {
    await joined([bucket], 'str_a');
    assert.unreachable('a gap was joined');
  } catch (err) {
    assert.match((err as Error).message, 'str_a-200.flv: bytes 6-12 are missing');
  }
});

test.after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test.run();
