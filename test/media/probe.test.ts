import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { codecsString, ffprobeSegmentArgs, keyframeInterval, parseSegmentProbe, type SegmentProbe } from '../../src/platform/media/probe.js';

// Captured from ffprobe 5.1 with ffprobeSegmentArgs on segments the ladder wrote (2-s publisher GOP).
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

test('ffprobeSegmentArgs: one JSON call, stream entries plus packet pts/flags, no decoding', () => {
  assert.equal(ffprobeSegmentArgs('/w/720p_00000.ts'), [
    '-v', 'error',
    '-print_format', 'json=compact=1',
    '-show_entries',
    'stream=index,codec_type,codec_name,profile,level,width,height,avg_frame_rate,r_frame_rate,codec_tag_string:packet=stream_index,pts_time,flags:format=duration',
    '/w/720p_00000.ts',
  ]);
});

test('parseSegmentProbe: 720p rung (x264 High 3.1 + AAC LC)', () => {
  const p = parseSegmentProbe(fixture('ffprobe-720p-high-aac.json'));
  assert.equal(p, {
    video: { codec: 'h264', profile: 'High', level: 31, width: 1280, height: 720, frameRate: 30 },
    audio: { codec: 'aac', profile: 'LC' },
    keyframeTimes: [1.479333, 3.479333],
    duration: 4.033333,
  });
  assert.is(codecsString(p), 'avc1.64001f,mp4a.40.2');
});

test("parseSegmentProbe: 480p rung is Main 3.1 (avc1.4d401f, as the research's ffmpeg master wrote it)", () => {
  const p = parseSegmentProbe(fixture('ffprobe-480p-main-aac.json'));
  assert.equal(p.video, { codec: 'h264', profile: 'Main', level: 31, width: 854, height: 480, frameRate: 30 });
  assert.equal(p.keyframeTimes, [1.479333, 3.479333], 'audio packets (all flagged K) are not keyframes');
  assert.is(codecsString(p), 'avc1.4d401f,mp4a.40.2');
});

test('parseSegmentProbe: copied source without audio', () => {
  const p = parseSegmentProbe(fixture('ffprobe-source-no-audio.json'));
  assert.is(p.audio, null);
  assert.equal(p.video, { codec: 'h264', profile: 'High', level: 31, width: 1280, height: 720, frameRate: 30 });
  assert.equal(p.keyframeTimes, [1.467, 3.467]);
  assert.is(p.duration, 4.000333);
  assert.is(codecsString(p), 'avc1.64001f');
});

test('codecsString: x264 Constrained Baseline matches what ffmpeg derives from the SPS (avc1.42c01e)', () => {
  const p = parseSegmentProbe(fixture('ffprobe-constrained-baseline.json'));
  assert.is(p.video?.profile, 'Constrained Baseline');
  assert.is(codecsString(p), 'avc1.42c01e,mp4a.40.2');
});

const probe = (video: Partial<NonNullable<SegmentProbe['video']>> | null, audio: SegmentProbe['audio']): SegmentProbe => ({
  video: video && { codec: 'h264', profile: 'High', level: 40, width: 1920, height: 1080, frameRate: 30, ...video },
  audio,
  keyframeTimes: [],
  duration: null,
});

test('codecsString: profile and level table, HE-AAC, and null when anything cannot be named exactly', () => {
  assert.is(codecsString(probe({}, null)), 'avc1.640028');
  assert.is(codecsString(probe({ profile: 'Main', level: 31 }, { codec: 'aac', profile: 'HE-AAC' })), 'avc1.4d401f,mp4a.40.5');
  assert.is(codecsString(probe({ profile: 'Baseline', level: 30 }, { codec: 'aac', profile: 'HE-AACv2' })), 'avc1.42001e,mp4a.40.29');
  assert.is(codecsString(probe({ profile: 'High 10', level: 51 }, null)), 'avc1.6e0033');
  assert.is(codecsString(probe(null, { codec: 'aac', profile: 'LC' })), 'mp4a.40.2');
  assert.is(codecsString(probe({ codec: 'hevc', profile: 'Main' }, null)), null);
  assert.is(codecsString(probe({ profile: null }, null)), null);
  assert.is(codecsString(probe({ level: null }, null)), null);
  assert.is(codecsString(probe({}, { codec: 'opus', profile: null })), null);
  assert.is(codecsString(probe(null, null)), null);
});

test('parseSegmentProbe: tolerates missing sections, N/A times and unknown rates/levels', () => {
  const p = parseSegmentProbe(JSON.stringify({
    streams: [{ index: 0, codec_type: 'video', codec_name: 'h264', profile: 'High', level: -99, width: 640, height: 360, avg_frame_rate: '0/0', r_frame_rate: '30000/1001' }],
    packets: [{ stream_index: 0, pts_time: 'N/A', flags: 'K_' }, { stream_index: 0, pts_time: '2.000000', flags: 'K_' }, { stream_index: 0, pts_time: '2.5', flags: '__' }],
  }));
  assert.equal(p.video, { codec: 'h264', profile: 'High', level: null, width: 640, height: 360, frameRate: 30000 / 1001 });
  assert.equal(p.keyframeTimes, [2]);
  assert.is(p.duration, null);
  assert.equal(parseSegmentProbe('{}'), { video: null, audio: null, keyframeTimes: [], duration: null });
  assert.throws(() => parseSegmentProbe('not json'));
});

test('keyframeInterval: mean gap, null under two keyframes', () => {
  assert.is(keyframeInterval([1.479333, 3.479333]), 2);
  assert.is(keyframeInterval([0, 2, 4, 7]), 7 / 3);
  assert.is(keyframeInterval([4, 0, 2]), 2, 'order does not matter');
  assert.is(keyframeInterval([5]), null);
  assert.is(keyframeInterval([]), null);
});

test.run();
