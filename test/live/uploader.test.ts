import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { createLogger } from '../../src/core/logger.js';
import { ladderArgs, planLadder } from '../../src/platform/media/ladder.js';
import { parseMediaPlaylist } from '../../src/platform/media/playlist.js';
import { probeSegment } from '../../src/appliance/build.js';
import { resolveConfig } from '../../src/config/config.js';
import { Uploader } from '../../src/domains/live/uploader.js';
import { makeClip } from '../helpers/publisher.js';

/** The uploader over a real ladder's output, read after the fact (as after a long stall). */
test('segments that slid out of the ladder playlist are recovered in order; master with CODECS; window of 6', async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-upl-work-'));
  const origin = mkdtempSync(join(tmpdir(), 'svc-upl-origin-'));
  try {
    const clip = await makeClip({ width: 1280, height: 720, seconds: 30, gopSeconds: 2, videoKbps: 800 });
    const renditions = planLadder('abr_basic', { width: 1280, height: 720 });
    await execa('ffmpeg', ladderArgs({ input: clip, outDir: work, renditions, hasAudio: true, preset: 'ultrafast', segmentSeconds: 4, firstSegmentSeconds: 2 }));
    // The ladder lists only its last 2 segments; all the others are still in the folder.
    assert.is(parseMediaPlaylist(readFileSync(join(work, 'source.m3u8'), 'utf8')).segments.length, 2);
    const segments = readdirSync(work).filter((f) => f.startsWith('source_')).length;
    const sourceSegments: number[] = [];
    const uploader = new Uploader({
      streamId: 'str_aaaaaaaaaaaaaaaaaaaa',
      workDir: work,
      originDir: origin,
      renditions: renditions.map((r) => r.name),
      windowSegments: 6,
      segmentSeconds: 4,
      probe: probeSegment(resolveConfig('/x', {})),
      onSourceSegment: (_probe, segment) => sourceSegments.push(Number(/_(\d+)\.ts$/.exec(segment.uri)?.[1])),
      logger: createLogger('silent'),
    });
    await uploader.tick();
    assert.equal(sourceSegments, [...Array(segments).keys()].filter((n) => n % 3 === 0), 'every third segment of the top quality is measured, in order');
    assert.equal(readdirSync(origin).filter((f) => f.startsWith('source_')).length, Math.min(segments, 12), 'the window and one more stay on the origin');
    assert.ok(uploader.playable);
    const media = parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8'));
    assert.is(media.segments.length, 6);
    assert.is(media.mediaSequence, segments - 6);
    assert.ok(media.segments.every((s) => existsSync(join(origin, s.uri))), 'every listed segment is on the origin');
    assert.not.ok(existsSync(join(work, 'source_00000.ts')), 'moved, not copied');
    // The first segments are 2 s (fresh folder), the later ones 4 s.
    const published = parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8')).segments;
    assert.ok(published.slice(0, -1).every((s) => Math.abs(s.duration - 4) < 0.1), `late segments are 4 s: ${published.map((s) => s.duration).join(', ')}`);
    assert.ok(segments >= 9, `${segments} segments for 30 s`);
    const master = readFileSync(join(origin, 'master.m3u8'), 'utf8');
    assert.match(master, /RESOLUTION=1280x720,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
    assert.match(master, /RESOLUTION=854x480,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
    await uploader.finish();
    assert.ok(parseMediaPlaylist(readFileSync(join(origin, '480p.m3u8'), 'utf8')).ended, 'ENDLIST at the end');
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(origin, { recursive: true, force: true });
  }
});

test.run();
