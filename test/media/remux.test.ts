import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { ffprobeDurationArgs } from '../../src/platform/media/probe.js';
import { ffprobeSegmentArgs, parseSegmentProbe } from '../helpers/ffprobe.js';
import { concatList, remuxArgs } from '../../src/platform/media/remux.js';
import { makeClip } from '../helpers/publisher.js';

test('remuxArgs: golden argv (concat list in, both streams optional, copied, index first)', () => {
  assert.equal(
    remuxArgs(
      '/var/lib/svc/media/recordings/str_abc/recording.mp4.txt',
      '/var/lib/svc/media/recordings/str_abc/recording.mp4.tmp.mp4',
    ),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      '/var/lib/svc/media/recordings/str_abc/recording.mp4.txt',
      '-map',
      '0:v:0?',
      '-map',
      '0:a:0?',
      '-c',
      'copy',
      '-movflags',
      '+faststart',
      '/var/lib/svc/media/recordings/str_abc/recording.mp4.tmp.mp4',
    ],
  );
});

test('ffprobeDurationArgs: golden argv (the duration alone, as a bare number)', () => {
  assert.equal(ffprobeDurationArgs('/w/recording.mp4'), [
    '-v',
    'error',
    '-show_entries',
    'format=duration',
    '-of',
    'csv=p=0',
    '/w/recording.mp4',
  ]);
});

test('concatList: one quoted line per session, in order; a quote in a path is escaped', () => {
  assert.is(
    concatList(['/i/str_abc-1700000000.flv', "/i/it's/str_abc-1700000100.flv"]),
    "file '/i/str_abc-1700000000.flv'\nfile '/i/it'\\''s/str_abc-1700000100.flv'\n",
  );
});

test('real ffmpeg and ffprobe: two sessions in a folder with a quote in its name make one MP4 of their joint length', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-remux-'));
  try {
    const quoted = join(dir, "it's");
    mkdirSync(quoted);
    const first = join(quoted, 'str_abc-1.flv');
    const second = join(quoted, 'str_abc-2.flv');
    copyFileSync(await makeClip({ width: 320, height: 180, seconds: 2, gopSeconds: 1 }), first);
    copyFileSync(await makeClip({ width: 320, height: 180, seconds: 3, gopSeconds: 1 }), second);
    const list = join(dir, 'recording.mp4.txt');
    const out = join(dir, 'recording.mp4');
    writeFileSync(list, concatList([first, second]));
    await execa('ffmpeg', remuxArgs(list, out));
    const duration = Number((await execa('ffprobe', ffprobeDurationArgs(out))).stdout.trim());
    assert.ok(Math.abs(duration - 5) < 0.2, `duration ${duration}`);
    const probe = parseSegmentProbe((await execa('ffprobe', ffprobeSegmentArgs(out))).stdout);
    assert.is(probe.video?.codec, 'h264');
    assert.is(probe.audio?.codec, 'aac');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('real ffmpeg: a publisher that sent no audio still gives an MP4 (the audio map is optional)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-remux-'));
  try {
    const list = join(dir, 'recording.mp4.txt');
    const out = join(dir, 'recording.mp4');
    writeFileSync(
      list,
      concatList([await makeClip({ width: 320, height: 180, seconds: 2, gopSeconds: 1, audio: false })]),
    );
    await execa('ffmpeg', remuxArgs(list, out));
    const probe = parseSegmentProbe((await execa('ffprobe', ffprobeSegmentArgs(out))).stdout);
    assert.is(probe.video?.codec, 'h264');
    assert.is(probe.audio, null);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
