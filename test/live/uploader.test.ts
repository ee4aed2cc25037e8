import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { createLogger } from '../../src/core/logger.js';
import { ladderArgs, planLadder } from '../../src/platform/media/ladder.js';
import { parseMediaPlaylist } from '../../src/platform/media/playlist.js';
import { readSegmentFile } from '../../src/platform/media/segment-reader.js';
import type { SegmentProbe } from '../../src/platform/media/probe.js';
import { Uploader } from '../../src/domains/engine/live/uploader.js';
import { FsStore } from '../../src/platform/storage/fs-store.js';
import { makeClip } from '../helpers/publisher.js';

/** The stream's folder on the origin, in a media folder as the appliance has it. */
function originOf(media: string): string {
  const dir = join(media, 'origin', 'str_aaaaaaaaaaaaaaaaaaaa');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The uploader over a real ladder's output, read after the fact (as after a long stall). */
test('segments that slid out of the ladder playlist are recovered in order; master with CODECS; window of 6', async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-upl-work-'));
  const mediaDir = mkdtempSync(join(tmpdir(), 'svc-upl-media-'));
  const origin = originOf(mediaDir);
  try {
    const clip = await makeClip({ width: 1280, height: 720, seconds: 30, gopSeconds: 2, videoKbps: 800 });
    const renditions = planLadder('abr_basic', { width: 1280, height: 720 });
    await execa(
      'ffmpeg',
      ladderArgs({
        input: clip,
        outDir: work,
        renditions,
        hasAudio: true,
        preset: 'ultrafast',
        segmentSeconds: 4,
        firstSegmentSeconds: 2,
      }),
    );
    // The ladder lists only its last 2 segments; all the others are still in the folder.
    assert.is(parseMediaPlaylist(readFileSync(join(work, 'source.m3u8'), 'utf8')).segments.length, 2);
    const segments = readdirSync(work).filter((f) => f.startsWith('source_')).length;
    const sourceSegments: number[] = [];
    const uploader = new Uploader({
      streamId: 'str_aaaaaaaaaaaaaaaaaaaa',
      workDir: work,
      store: new FsStore(mediaDir),
      renditions: renditions.map((r) => r.name),
      windowSegments: 6,
      segmentSeconds: 4,
      probe: readSegmentFile,
      onSourceSegment: (_probe, segment) => sourceSegments.push(Number(/_(\d+)\.ts$/.exec(segment.uri)?.[1])),
      logger: createLogger('silent'),
    });
    await uploader.tick();
    assert.equal(sourceSegments, [...Array(segments).keys()], 'every segment of the top quality is measured, in order');
    assert.equal(
      readdirSync(origin).filter((f) => f.startsWith('source_')).length,
      Math.min(segments, 12),
      'the window and one more stay on the origin',
    );
    assert.ok(uploader.playable);
    const media = parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8'));
    assert.is(media.segments.length, 6);
    assert.is(media.mediaSequence, segments - 6);
    assert.ok(
      media.segments.every((s) => existsSync(join(origin, s.uri))),
      'every listed segment is on the origin',
    );
    const newest = media.segments.at(-1)?.uri as string;
    assert.is(statSync(join(origin, newest)).ino, statSync(join(work, newest)).ino, 'a second name, not a copy');
    // The first segments are 2 s (fresh folder), the later ones 4 s.
    const published = parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8')).segments;
    assert.ok(
      published.slice(0, -1).every((s) => Math.abs(s.duration - 4) < 0.1),
      `late segments are 4 s: ${published.map((s) => s.duration).join(', ')}`,
    );
    assert.ok(segments >= 9, `${segments} segments for 30 s`);
    const master = readFileSync(join(origin, 'master.m3u8'), 'utf8');
    assert.match(master, /RESOLUTION=1280x720,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
    assert.match(master, /RESOLUTION=854x480,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
    await uploader.finish();
    assert.ok(parseMediaPlaylist(readFileSync(join(origin, '480p.m3u8'), 'utf8')).ended, 'ENDLIST at the end');
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(mediaDir, { recursive: true, force: true });
  }
});

/** An uploader made after a restart continues the origin's playlists: numbers never go back, the join is a discontinuity. */
test('a restart continues MEDIA-SEQUENCE and DISCONTINUITY-SEQUENCE from the origin, with a discontinuity at the join', async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-upl-work-'));
  const mediaDir = mkdtempSync(join(tmpdir(), 'svc-upl-media-'));
  const origin = originOf(mediaDir);
  try {
    const clip = await makeClip({ width: 320, height: 240, seconds: 12, gopSeconds: 2 });
    const renditions = planLadder('abr_basic', { width: 320, height: 240 });
    const uploader = () =>
      new Uploader({
        streamId: 'str_aaaaaaaaaaaaaaaaaaaa',
        workDir: work,
        store: new FsStore(mediaDir),
        renditions: renditions.map((r) => r.name),
        windowSegments: 2,
        segmentSeconds: 4,
        probe: readSegmentFile,
        onSourceSegment: () => {},
        logger: createLogger('silent'),
      });
    // The ladder as the worker runs it: append_list, so a later session continues the folder's numbering.
    const session = () =>
      execa(
        'ffmpeg',
        ladderArgs({ input: clip, outDir: work, renditions, hasAudio: true, preset: 'ultrafast', segmentSeconds: 4 }),
      );
    const originList = () => parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8'));

    await session();
    const first = uploader();
    await first.tick();
    const before = originList();
    assert.ok(
      before.segments.length === 2 && before.mediaSequence >= 1,
      `a sliding window before the restart (sequence ${before.mediaSequence})`,
    );

    // The appliance restarts: a new uploader, and the untouched origin until a segment comes.
    const second = uploader();
    await second.tick();
    assert.ok(second.playable, 'the master on the origin still serves');
    assert.equal(originList(), before, 'nothing new, nothing rewritten');

    // Another publish session (the publisher reconnected to the restarted appliance).
    await session();
    await second.tick();
    const after = originList();
    const seen = new Set(before.segments.map((x) => x.uri));
    assert.ok(
      after.mediaSequence > before.mediaSequence,
      `MEDIA-SEQUENCE continues: ${before.mediaSequence} -> ${after.mediaSequence}`,
    );
    assert.ok(
      after.discontinuitySequence >= before.discontinuitySequence + 1,
      `the join slid out and is counted: ${before.discontinuitySequence} -> ${after.discontinuitySequence}`,
    );
    assert.ok(
      after.segments.every((x) => !seen.has(x.uri) && existsSync(join(origin, x.uri))),
      'new segment files, every listed one on the origin',
    );
    assert.is(after.targetDuration, before.targetDuration);
    assert.ok(
      readdirSync(origin).filter((f) => f.startsWith('source_')).length <= 4,
      'two windows stay on the origin, the older files go',
    );

    // A third appliance that only ends the broadcast keeps the numbers and adds ENDLIST.
    await uploader().finish();
    const ended = originList();
    assert.ok(ended.ended);
    assert.is(ended.mediaSequence, after.mediaSequence);
    assert.is(ended.discontinuitySequence, after.discontinuitySequence);
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(mediaDir, { recursive: true, force: true });
  }
});

test('the first segment after a restart is marked as a discontinuity, and the sequences count on from the origin', async () => {
  const work = mkdtempSync(join(tmpdir(), 'svc-upl-work-'));
  const mediaDir = mkdtempSync(join(tmpdir(), 'svc-upl-media-'));
  const origin = originOf(mediaDir);
  try {
    // What an earlier appliance published (sequence 40, 3 discontinuities gone) and what the ladder wrote since.
    writeFileSync(
      join(origin, 'source.m3u8'),
      '#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:5\n#EXT-X-MEDIA-SEQUENCE:40\n#EXT-X-DISCONTINUITY-SEQUENCE:3\n#EXTINF:4.000,\nsource_00040.ts\n#EXTINF:4.000,\nsource_00041.ts\n',
    );
    for (const n of [39, 40, 41]) writeFileSync(join(origin, `source_000${n}.ts`), 'x');
    writeFileSync(
      join(work, 'source.m3u8'),
      '#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:41\n#EXTINF:4.000,\nsource_00041.ts\n#EXTINF:4.000,\nsource_00042.ts\n#EXTINF:4.000,\nsource_00043.ts\n',
    );
    for (const n of [42, 43]) writeFileSync(join(work, `source_000${n}.ts`), 'x'.repeat(1000));
    const probe = async (): Promise<SegmentProbe> => ({
      video: { codec: 'h264', profile: 'High', level: 31, width: 320, height: 240, frameRate: 30 },
      audio: null,
      keyframeTimes: [],
      duration: 4,
    });
    const up = new Uploader({
      streamId: 'str_aaaaaaaaaaaaaaaaaaaa',
      workDir: work,
      store: new FsStore(mediaDir),
      renditions: ['source'],
      windowSegments: 2,
      segmentSeconds: 4,
      probe,
      onSourceSegment: () => {},
      logger: createLogger('silent'),
    });
    await up.tick();
    const text = readFileSync(join(origin, 'source.m3u8'), 'utf8');
    assert.match(text, /#EXT-X-TARGETDURATION:5\n#EXT-X-MEDIA-SEQUENCE:42\n#EXT-X-DISCONTINUITY-SEQUENCE:3\n/);
    assert.match(text, /#EXT-X-DISCONTINUITY\n#EXTINF:4\.000,\nsource_00042\.ts\n#EXTINF:4\.000,\nsource_00043\.ts\n$/);
    assert.equal(
      readdirSync(origin)
        .filter((f) => f.endsWith('.ts'))
        .sort(),
      ['source_00040.ts', 'source_00041.ts', 'source_00042.ts', 'source_00043.ts'],
      'the oldest file left the origin',
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
    rmSync(mediaDir, { recursive: true, force: true });
  }
});

/**
 * RFC 8216 4.3.3.1: every EXTINF rounded to the nearest integer is at most TARGETDURATION. A
 * 29.97 fps publisher's pieces are 4.004 s (1.001 s in low-latency mode): the target stays 4 (1),
 * a longer piece raises it, and a restart neither lowers it nor forgets the pieces it lists.
 */
test('TARGETDURATION: every EXTINF rounded to the nearest integer, in both latency modes and after a restart', async () => {
  for (const [mode, segmentSeconds, usual] of [
    ['standard', 4, 4.004],
    ['low', 1, 1.001],
  ] as const) {
    const work = mkdtempSync(join(tmpdir(), 'svc-upl-work-'));
    const mediaDir = mkdtempSync(join(tmpdir(), 'svc-upl-media-'));
    const origin = originOf(mediaDir);
    try {
      const probe = async (): Promise<SegmentProbe> => ({
        video: { codec: 'h264', profile: 'High', level: 31, width: 320, height: 240, frameRate: 29.97 },
        audio: null,
        keyframeTimes: [],
        duration: usual,
      });
      const uploader = () =>
        new Uploader({
          streamId: 'str_aaaaaaaaaaaaaaaaaaaa',
          workDir: work,
          store: new FsStore(mediaDir),
          renditions: ['source'],
          windowSegments: 3,
          segmentSeconds,
          probe,
          onSourceSegment: () => {},
          logger: createLogger('silent'),
        });
      const ladderWrote = (pieces: [number, number][]) => {
        writeFileSync(
          join(work, 'source.m3u8'),
          `#EXTM3U\n${pieces.map(([n, d]) => `#EXTINF:${d.toFixed(6)},\nsource_${String(n).padStart(5, '0')}.ts\n`).join('')}`,
        );
        for (const [n] of pieces) writeFileSync(join(work, `source_${String(n).padStart(5, '0')}.ts`), 'x'.repeat(100));
      };
      const published = () => parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8'));
      const rfcHolds = (p: ReturnType<typeof published>) =>
        p.segments.every((x) => Math.round(Number(x.duration.toFixed(3))) <= (p.targetDuration as number));

      const first = uploader();
      ladderWrote([
        [0, usual],
        [1, usual],
      ]);
      await first.tick();
      assert.is(
        published().targetDuration,
        segmentSeconds,
        `${mode}: ${usual}-second pieces keep the target at ${segmentSeconds}`,
      );
      // A piece half a second past the target (the publisher's keyframes slipped) rounds up: the target grows.
      const longer = segmentSeconds + 0.4996;
      ladderWrote([
        [1, usual],
        [2, longer],
      ]);
      await first.tick();
      assert.is(
        published().targetDuration,
        segmentSeconds + 1,
        `${mode}: a ${longer.toFixed(3)}-second piece (written ${longer.toFixed(3)}) raises the target`,
      );
      assert.ok(rfcHolds(published()));

      // The appliance restarts: the longer piece is still in the window, later ones are usual again.
      const second = uploader();
      ladderWrote([
        [3, usual],
        [4, usual],
      ]);
      await second.tick();
      const after = published();
      assert.is(after.targetDuration, segmentSeconds + 1, `${mode}: a restart keeps the target`);
      assert.ok(rfcHolds(after));
      await second.finish();
      assert.is(published().targetDuration, segmentSeconds + 1);
    } finally {
      rmSync(work, { recursive: true, force: true });
      rmSync(mediaDir, { recursive: true, force: true });
    }
  }
});

test.run();
