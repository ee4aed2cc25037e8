import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { ladderArgs, planLadder } from '../../src/platform/media/ladder.js';
import { codecsString, type SegmentProbe } from '../../src/platform/media/probe.js';
import { readSegment } from '../../src/platform/media/segment-reader.js';
import { ffprobeSegmentArgs, parseSegmentProbe } from '../helpers/ffprobe.js';
import { makeClip } from '../helpers/publisher.js';

/**
 * The in-process reader against ffprobe on real segments: every fact the uploader and the ingest
 * meter use must match. Sources are small and 8 s (two 4-second segments) to spare the CPU.
 */

const SECONDS = 8;

/** HLS segments of an encoded test picture (and tone), cut every 4 s as the ladder cuts them. */
async function encode(
  dir: string,
  o: { size: string; rate: string; video: string[]; audio?: string[] },
): Promise<string[]> {
  await execa('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${o.size}:rate=${o.rate}:duration=${SECONDS}`,
    ...(o.audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${SECONDS}`] : []),
    '-c:v',
    'libx264',
    ...o.video,
    ...(o.audio ?? []),
    '-f',
    'hls',
    '-hls_time',
    '4',
    '-hls_list_size',
    '0',
    '-hls_segment_filename',
    join(dir, 's_%03d.ts'),
    join(dir, 's.m3u8'),
  ]);
  return segmentFiles(dir);
}

const segmentFiles = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => join(dir, f));

async function compare(files: string[]): Promise<SegmentProbe[]> {
  assert.ok(files.length >= 2, `${files.length} segments`);
  const read: SegmentProbe[] = [];
  for (const file of files) {
    const mine = readSegment(readFileSync(file));
    const theirs = parseSegmentProbe((await execa('ffprobe', ffprobeSegmentArgs(file))).stdout);
    const where = `${file}\nreader:  ${JSON.stringify(mine)}\nffprobe: ${JSON.stringify(theirs)}`;
    assert.ok(theirs.video, where);
    if (theirs.video.width === 0) {
      // No SPS in this segment (intra refresh repeats none): ffprobe says 0x0, the reader nothing.
      assert.is(mine.video, null, where);
    } else {
      assert.ok(mine.video, where);
      const { frameRate: ourRate, ...ourVideo } = mine.video;
      const { frameRate: theirRate, ...theirVideo } = theirs.video;
      assert.equal(ourVideo, theirVideo, where);
      assert.ok(ourRate !== null && theirRate !== null && Math.abs(ourRate - theirRate) < 0.01, `frame rate: ${where}`);
      assert.is(codecsString(mine), codecsString(theirs));
    }
    assert.equal(mine.audio, theirs.audio, where);
    assert.is(mine.keyframeTimes.length, theirs.keyframeTimes.length, `keyframes: ${where}`);
    mine.keyframeTimes.forEach((t, i) =>
      assert.ok(Math.abs(t - (theirs.keyframeTimes[i] as number)) < 1e-5, `keyframe ${i}: ${where}`),
    );
    assert.ok(
      mine.duration !== null && theirs.duration !== null && Math.abs(mine.duration - theirs.duration) < 0.002,
      `duration: ${where}`,
    );
    read.push(mine);
  }
  return read;
}

function inDir(run: (dir: string) => Promise<void>): () => Promise<void> {
  return async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-segreader-'));
    try {
      await run(dir);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };
}

test(
  'the ladder copying an FLV publish (as from nginx-rtmp: millisecond timestamps), x264 ultrafast + AAC',
  inDir(async (dir) => {
    const clip = await makeClip({ width: 640, height: 360, seconds: SECONDS, gopSeconds: 2 });
    await execa(
      'ffmpeg',
      ladderArgs({
        input: clip,
        outDir: dir,
        renditions: planLadder('passthrough', { width: 640, height: 360 }),
        hasAudio: true,
        preset: 'ultrafast',
        segmentSeconds: 4,
      }),
    );
    const [first] = await compare(segmentFiles(dir));
    assert.equal(first?.video, {
      codec: 'h264',
      profile: 'Constrained Baseline',
      level: 30,
      width: 640,
      height: 360,
      frameRate: 30,
    });
    assert.is(codecsString(first as SegmentProbe), 'avc1.42c01e,mp4a.40.2');
  }),
);

test(
  'High with B-frames, 29.97 fps, a width that is no multiple of 16, AAC',
  inDir(async (dir) => {
    const [first] = await compare(
      await encode(dir, {
        size: '426x240',
        rate: '30000/1001',
        video: [
          '-preset',
          'veryfast',
          '-profile:v',
          'high',
          '-bf',
          '3',
          '-g',
          '60',
          '-keyint_min',
          '60',
          '-sc_threshold',
          '0',
        ],
        audio: ['-c:a', 'aac', '-b:a', '64k'],
      }),
    );
    assert.equal(first?.video, {
      codec: 'h264',
      profile: 'High',
      level: 21,
      width: 426,
      height: 240,
      frameRate: 30000 / 1001,
    });
    assert.is(first?.keyframeTimes.length, 2, 'a keyframe every 2 s');
    assert.is(codecsString(first as SegmentProbe), 'avc1.640015,mp4a.40.2');
  }),
);

test(
  'Main, portrait, no audio, 3-second keyframes',
  inDir(async (dir) => {
    const [first] = await compare(
      await encode(dir, {
        size: '360x640',
        rate: '25',
        video: ['-preset', 'veryfast', '-profile:v', 'main', '-g', '75', '-keyint_min', '75', '-sc_threshold', '0'],
      }),
    );
    assert.is(first?.audio, null);
    assert.equal([first?.video?.width, first?.video?.height, first?.video?.profile], [360, 640, 'Main']);
    assert.match(codecsString(first as SegmentProbe) ?? '', /^avc1\.4d40[0-9a-f]{2}$/);
  }),
);

test(
  'interlaced (field pictures: frame_mbs_only_flag 0), odd height in macroblocks, MP3 audio',
  inDir(async (dir) => {
    const [first] = await compare(
      await encode(dir, {
        size: '320x232',
        rate: '25',
        video: ['-preset', 'veryfast', '-flags', '+ildct+ilme', '-g', '50', '-sc_threshold', '0'],
        audio: ['-c:a', 'libmp3lame', '-b:a', '64k'],
      }),
    );
    assert.equal([first?.video?.width, first?.video?.height], [320, 232]);
    assert.is(first?.audio?.codec, 'mp3');
  }),
);

test(
  'periodic intra refresh: keyframes are recovery points, not IDR pictures',
  inDir(async (dir) => {
    const [, second] = await compare(
      await encode(dir, {
        size: '320x180',
        rate: '30',
        video: ['-preset', 'veryfast', '-x264-params', 'intra-refresh=1:keyint=60'],
        audio: ['-c:a', 'aac', '-b:a', '64k'],
      }),
    );
    assert.is(second?.video, null, 'no SPS after the first picture');
    assert.ok((second?.keyframeTimes.length ?? 0) >= 1, 'the second segment has recovery points only, and they count');
  }),
);

test(
  'High 4:2:2 (chroma format in the SPS, its own crop units), odd-sized frame',
  inDir(async (dir) => {
    const [first] = await compare(
      await encode(dir, {
        size: '322x182',
        rate: '30',
        video: ['-preset', 'veryfast', '-pix_fmt', 'yuv422p', '-g', '60', '-sc_threshold', '0'],
      }),
    );
    assert.equal([first?.video?.profile, first?.video?.width, first?.video?.height], ['High 4:2:2', 322, 182]);
  }),
);

test('no sync byte, cut packets, an empty file: an empty answer, no throw', () => {
  assert.equal(readSegment(new Uint8Array(0)), { video: null, audio: null, keyframeTimes: [], duration: null });
  assert.equal(readSegment(new Uint8Array(1000).fill(0x47)), {
    video: null,
    audio: null,
    keyframeTimes: [],
    duration: null,
  });
  const noise = new Uint8Array(188 * 50).map((_, i) => (i * 7919) % 251);
  assert.equal(readSegment(noise).video, null);
});

test.run();
