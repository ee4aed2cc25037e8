import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_LIVE } from '../../src/config/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { Thumbnailer } from '../../src/domains/engine/thumbnails/capture.js';
import { FsStore } from '../../src/platform/storage/fs-store.js';
import { makeClip } from '../helpers/publisher.js';

const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a passthrough stream gets a still every 60 s, abr_basic every 20 s, each its first one at once (real ffmpeg)', async () => {
  assert.is(DEFAULT_LIVE.thumbnail_seconds, 20);
  assert.is(DEFAULT_LIVE.passthrough_thumbnail_seconds, 60);
  const dir = mkdtempSync(join(tmpdir(), 'svc-stills-'));
  const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
  const captured: Record<string, number[]> = { str_abr: [], str_copy: [] };
  try {
    const thumbnails = new Thumbnailer({
      ffmpegPath: 'ffmpeg',
      store: new FsStore(dir),
      scratchDir: dir,
      everySeconds: {
        abr_basic: DEFAULT_LIVE.thumbnail_seconds,
        passthrough: DEFAULT_LIVE.passthrough_thumbnail_seconds,
      },
      clock,
      logger: createLogger('silent'),
      onCaptured: async (streamId, at) =>
        void captured[streamId]!.push((at.getTime() - Date.parse('2026-01-01T00:00:00Z')) / 1000),
    });
    const segment = await makeClip({ width: 1280, height: 720, seconds: 2, gopSeconds: 1 });
    const expected = { str_abr: [] as number[], str_copy: [] as number[] };
    const deadline = Date.now() + 30_000;
    for (let t = 0; t <= 100; t += 4) {
      thumbnails.offer('str_abr', 'abr_basic', segment);
      thumbnails.offer('str_copy', 'passthrough', segment);
      if (t % 20 === 0) expected.str_abr.push(t);
      if (t % 60 === 0) expected.str_copy.push(t);
      while (
        (captured.str_abr!.length < expected.str_abr.length || captured.str_copy!.length < expected.str_copy.length) &&
        Date.now() < deadline
      )
        await settle(20);
      clock.advance(4);
    }
    // A still taken when none was due would still be on its way: give it time to show.
    await settle(1000);
    assert.equal(captured, expected);
    assert.ok(existsSync(join(dir, 'thumbs', 'str_copy.jpg')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
