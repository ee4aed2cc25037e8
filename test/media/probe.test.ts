import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { codecsString, keyframeInterval, type SegmentProbe } from '../../src/platform/media/probe.js';

const probe = (
  video: Partial<NonNullable<SegmentProbe['video']>> | null,
  audio: SegmentProbe['audio'],
): SegmentProbe => ({
  video: video && { codec: 'h264', profile: 'High', level: 40, width: 1920, height: 1080, frameRate: 30, ...video },
  audio,
  keyframeTimes: [],
  duration: null,
});

test('codecsString: profile and level table, HE-AAC, and null when anything cannot be named exactly', () => {
  assert.is(codecsString(probe({}, null)), 'avc1.640028');
  assert.is(
    codecsString(probe({ profile: 'Main', level: 31 }, { codec: 'aac', profile: 'HE-AAC' })),
    'avc1.4d401f,mp4a.40.5',
  );
  assert.is(
    codecsString(probe({ profile: 'Baseline', level: 30 }, { codec: 'aac', profile: 'HE-AACv2' })),
    'avc1.42001e,mp4a.40.29',
  );
  assert.is(codecsString(probe({ profile: 'High 10', level: 51 }, null)), 'avc1.6e0033');
  assert.is(codecsString(probe(null, { codec: 'aac', profile: 'LC' })), 'mp4a.40.2');
  assert.is(codecsString(probe({ codec: 'hevc', profile: 'Main' }, null)), null);
  assert.is(codecsString(probe({ profile: null }, null)), null);
  assert.is(codecsString(probe({ level: null }, null)), null);
  assert.is(codecsString(probe({}, { codec: 'opus', profile: null })), null);
  assert.is(codecsString(probe(null, null)), null);
});

test('keyframeInterval: mean gap, null under two keyframes', () => {
  assert.is(keyframeInterval([1.479333, 3.479333]), 2);
  assert.is(keyframeInterval([0, 2, 4, 7]), 7 / 3);
  assert.is(keyframeInterval([4, 0, 2]), 2, 'order does not matter');
  assert.is(keyframeInterval([5]), null);
  assert.is(keyframeInterval([]), null);
});

test.run();
