/** TrackClock: the relay's sender reports when the browser's come late (no decoder, no network). */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RtcpSenderInfo, RtcpSrPacket } from 'werift';
import { TrackClock } from '../../src/platform/webrtc/sender-reports.js';

const NTP_UNIT = 2 ** 32;
const report = (ntpSeconds: number, rtp: number) =>
  new RtcpSrPacket({
    ssrc: 7,
    senderInfo: new RtcpSenderInfo({ ntpTimestamp: BigInt(Math.round(ntpSeconds * NTP_UNIT)), rtpTimestamp: rtp }),
  });
const seconds = (p: RtcpSrPacket) => Number(p.senderInfo.ntpTimestamp) / NTP_UNIT;
/** The NTP time a report gives an RTP timestamp of a 48 kHz track. */
const at = (p: RtcpSrPacket, rtp: number) => seconds(p) + ((rtp - p.senderInfo.rtpTimestamp) | 0) / 48_000;

test('a browser report that is already in is passed as it is', () => {
  const clock = new TrackClock(48_000);
  clock.packet(1000, 7, performance.timeOrigin + performance.now());
  const real = report(5000, 900);
  assert.is(clock.report(real), real);
  assert.is(clock.firstReport(null), real);
});

test('no report yet: one is made from the arrival, and the later real ones are shifted onto it', () => {
  const audio = new TrackClock(48_000);
  audio.packet(480_000, 7, performance.timeOrigin + performance.now());
  const made = audio.firstReport(null) as RtcpSrPacket;
  assert.is(made.senderInfo.rtpTimestamp, 480_000);
  assert.ok(
    Math.abs(seconds(made) - ((performance.timeOrigin + performance.now()) / 1000 + 2_208_988_800)) < 1,
    'on this machine’s clock',
  );
  // The browser's clock says something else entirely: what the relay sees continues the made-up mapping.
  const first = audio.report(report(100, 480_000 + 96_000));
  assert.ok(Math.abs(at(first, 480_000) - seconds(made)) < 1e-6);
  // Its drift still comes through: 1 ms more over 10 s.
  const later = audio.report(report(110.001, 480_000 + 96_000 + 480_000));
  assert.ok(Math.abs(at(later, 480_000) - (seconds(made) + 0.001)) < 1e-6);
});

test('one track with a report: the other is made on the browser’s clock', () => {
  const video = new TrackClock(48_000);
  const audio = new TrackClock(48_000);
  const now = performance.timeOrigin + performance.now();
  video.packet(48_000, 1, now);
  video.report(report(200, 0)); // packet 48000 was sent at 201 s on the browser's clock
  audio.packet(9_600, 2, now + 100);
  const made = audio.firstReport(video) as RtcpSrPacket;
  assert.ok(Math.abs(seconds(made) - 201.1) < 1e-3, `${seconds(made)}`);
});

test.run();
