import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { lastMediaAt } from '../../src/domains/engine/live/evidence.js';

test("lastMediaAt: the newest of the stream's ingest recordings and segments, other streams and files ignored", () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-evidence-'));
  try {
    const paths = dataPaths(dir);
    const id = 'str_aaaaaaaaaaaaaaaaaaaa';
    assert.is(lastMediaAt(dir, id), null, 'nothing on disk');
    for (const d of [paths.ingest, join(paths.live, id), join(paths.origin, id)]) mkdirSync(d, { recursive: true });
    const at = (file: string, iso: string) => {
      writeFileSync(file, 'x');
      utimesSync(file, new Date(iso), new Date(iso));
    };
    at(join(paths.origin, id, 'source_00001.ts'), '2026-01-01T10:00:00Z');
    at(join(paths.live, id, 'source_00002.ts'), '2026-01-01T10:00:04Z');
    assert.equal(lastMediaAt(dir, id), new Date('2026-01-01T10:00:04Z'));
    // nginx kept recording the publisher after the ladder stopped (the appliance was down).
    at(join(paths.ingest, `${id}-1767261600.flv`), '2026-01-01T10:02:30Z');
    // Newer, but not evidence for this stream: another stream, a playlist.
    at(join(paths.ingest, 'str_bbbbbbbbbbbbbbbbbbbb-1767261600.flv'), '2026-01-01T11:00:00Z');
    at(join(paths.origin, id, 'source.m3u8'), '2026-01-01T11:00:00Z');
    assert.equal(lastMediaAt(dir, id), new Date('2026-01-01T10:02:30Z'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
