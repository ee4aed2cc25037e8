import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { ffprobeSegmentArgs, parseSegmentProbe } from '../helpers/ffprobe.js';
import { thumbnailArgs } from '../../src/platform/media/thumbnail.js';
import { makeClip } from '../helpers/publisher.js';

test('thumbnailArgs: golden argv (first frame, at most 360 lines, one JPEG)', () => {
  assert.equal(
    thumbnailArgs('/var/lib/svc/media/origin/str_abc/source_00003.ts', '/var/lib/svc/media/thumbs/str_abc.jpg.new.jpg'),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostdin',
      '-threads',
      '1',
      '-skip_frame',
      'nokey',
      '-probesize',
      '1M',
      '-an',
      '-i',
      '/var/lib/svc/media/origin/str_abc/source_00003.ts',
      '-frames:v',
      '1',
      '-vf',
      "scale=-2:'min(360,ih)'",
      '-q:v',
      '5',
      '-f',
      'image2',
      '-y',
      '/var/lib/svc/media/thumbs/str_abc.jpg.new.jpg',
    ],
  );
});

/** What the still's size is, as ffprobe sees it. */
async function stillSize(
  input: string,
  dir: string,
): Promise<{ codec: string; width: number; height: number } | undefined> {
  const out = join(dir, 'still.jpg');
  await execa('ffmpeg', thumbnailArgs(input, out));
  const video = parseSegmentProbe((await execa('ffprobe', ffprobeSegmentArgs(out))).stdout).video;
  return video ? { codec: video.codec, width: video.width, height: video.height } : undefined;
}

test('real ffmpeg: a 1280x720 segment gives a 640x360 JPEG; a smaller one keeps its size', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-thumb-'));
  try {
    assert.equal(await stillSize(await makeClip({ width: 1280, height: 720, seconds: 2, gopSeconds: 1 }), dir), {
      codec: 'mjpeg',
      width: 640,
      height: 360,
    });
    assert.equal(await stillSize(await makeClip({ width: 320, height: 180, seconds: 2, gopSeconds: 1 }), dir), {
      codec: 'mjpeg',
      width: 320,
      height: 180,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('real ffmpeg: the cheaper decode gives the same picture as a plain first-frame grab of a 1080p piece', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-thumb-'));
  try {
    const clip = await makeClip({ width: 1920, height: 1080, seconds: 2, gopSeconds: 1 });
    const plain = join(dir, 'plain.jpg');
    await execa('ffmpeg', [
      '-v',
      'error',
      '-i',
      clip,
      '-frames:v',
      '1',
      '-vf',
      "scale=-2:'min(360,ih)'",
      '-q:v',
      '5',
      '-f',
      'image2',
      '-y',
      plain,
    ]);
    await execa('ffmpeg', thumbnailArgs(clip, join(dir, 'still.jpg')));
    assert.ok(readFileSync(plain).equals(readFileSync(join(dir, 'still.jpg'))), 'byte for byte the same JPEG');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
