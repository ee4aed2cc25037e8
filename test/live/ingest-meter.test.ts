import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { brokenLimit, IngestMeter, withinResolution } from '../../src/domains/engine/live/ingest-meter.js';
import type { SegmentProbe } from '../../src/platform/media/probe.js';

const segment = (width: number, height: number, keyframes: number[], duration = 4): SegmentProbe => ({
  video: { codec: 'h264', profile: 'High', level: 40, width, height, frameRate: 30 },
  audio: null,
  keyframeTimes: keyframes,
  duration,
});
const at = (s: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, s));

test('kbps: bytes received over the window; a new publish session starts the window again', () => {
  const meter = new IngestMeter(4);
  assert.is(meter.kbps(), null);
  meter.addBytes(at(0), 0);
  meter.addBytes(at(1), 500_000);
  assert.is(meter.kbps(), 4000);
  for (let s = 2; s <= 10; s++) meter.addBytes(at(s), s * 250_000 + 250_000);
  // The last 4 s: 2 Mbps.
  assert.is(meter.kbps(), 2000);
  meter.addBytes(at(11), 1000);
  assert.is(meter.kbps(), null, 'the counter restarted: no rate from one sample');
});

test('resolution: short side against the declared height, long side against 16:9, both with 12% slack', () => {
  assert.ok(withinResolution({ width: 1280, height: 720 }, 720));
  assert.ok(withinResolution({ width: 720, height: 1280 }, 720), 'portrait counts as 720');
  assert.ok(withinResolution({ width: 1432, height: 806 }, 720), 'within 12%');
  assert.not.ok(withinResolution({ width: 1920, height: 1080 }, 720));
  assert.not.ok(withinResolution({ width: 1600, height: 720 }, 720), 'too wide');
  assert.is(brokenLimit(8000, { width: 640, height: 360 }, { maxResolution: 480, maxKbps: 7500 }), 'limit_bitrate');
  assert.is(brokenLimit(1000, { width: 1280, height: 720 }, { maxResolution: 480, maxKbps: 7500 }), 'limit_resolution');
  assert.is(brokenLimit(1000, { width: 854, height: 480 }, { maxResolution: 480, maxKbps: 7500 }), null);
});

test('keyframes: within each measured segment; one keyframe in a segment means at least its length', () => {
  const meter = new IngestMeter(30);
  meter.addBytes(at(0), 0);
  meter.addBytes(at(2), 100_000);
  meter.addSegment(segment(1280, 720, [10, 12]));
  meter.addSegment(segment(1280, 720, [22, 24]));
  let m = meter.measure(at(2), { maxResolution: 720, maxKbps: 7500 });
  assert.is(m?.keyframe_interval_seconds, 2);
  assert.is(m?.keyframe_warning, false);
  assert.is(m?.width, 1280);
  assert.is(m?.kbps, 400);
  const slow = new IngestMeter(30);
  slow.addSegment(segment(1280, 720, [0], 5));
  slow.addSegment(segment(1280, 720, [15], 5));
  m = slow.measure(at(0), { maxResolution: 720, maxKbps: 7500 });
  assert.is(m?.keyframe_interval_seconds, 5);
  assert.is(m?.keyframe_warning, true);
  assert.is(m?.kbps, null);
});

test.run();
