/**
 * The sampled regime against simulated crowds: every player draws `u` from a seeded generator,
 * learns the rate only from the (cached) embed read it makes on arrival and about every minute,
 * and reports only while `u` is below it, so rates change while beats are in flight.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../src/core/clock.js';
import { SAMPLE_TARGET, ViewerCounter, type NowEstimate } from '../../src/domains/audience/viewers/counter.js';
import { Crowd } from '../helpers/crowd.js';

const INTERVAL = 15;
const STREAM = 'str_sampledsampledsampl';

function setup(seed: number) {
  const clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
  const counter = new ViewerCounter({ clock, intervalSeconds: INTERVAL, sampleSeconds: 5 });
  const crowd = new Crowd({ counter, clock, streamId: STREAM, seed, intervalSeconds: INTERVAL });
  return { clock, counter, crowd };
}

const relativeError = (estimate: number, truth: number) => Math.abs(estimate - truth) / truth;

function assertClose(now: NowEstimate | null, truth: number, what: string): NowEstimate {
  assert.ok(now, `${what}: an estimate`);
  const error = relativeError(now.watching, truth);
  assert.ok(error <= 0.05, `${what}: ${now.watching} for ${truth} watching (${(100 * error).toFixed(1)}% off)`);
  return now;
}

/** Arrivals over `rampSeconds`, then a steady crowd: checked at the end of the ramp and of the steady phase. */
function crowdOf(n: number, seed: number, rampSeconds: number) {
  const { counter, crowd } = setup(seed);
  let mostBeats = 0;
  for (let t = 0; t < rampSeconds; t++) {
    crowd.tick(Math.round(((t + 1) * n) / rampSeconds) - Math.round((t * n) / rampSeconds));
    mostBeats = Math.max(mostBeats, crowd.beatsInLast(INTERVAL));
  }
  assert.is(crowd.players.length, n);
  const atRampEnd = assertClose(counter.now(STREAM), n, `${n} at the end of the arrivals`);
  assert.is(atRampEnd.exact, false);
  crowd.run(120);
  const steady = assertClose(counter.now(STREAM), n, `${n} two minutes later`);
  assert.is(steady.exact, false);
  const truth = crowd.truth();
  assert.ok(
    Math.abs(steady.buffering_pct - truth.buffering_pct) <= 1.5,
    `buffering ${steady.buffering_pct}% for ${truth.buffering_pct.toFixed(1)}%`,
  );
  const rate = counter.beacon(STREAM).rate;
  const steadyBeats = crowd.beatsInLast(INTERVAL);
  return { counter, crowd, rate, steadyBeats, mostBeats };
}

test('3,000 players arriving over a minute: the rate falls from 1; estimate within 5%, beats near K', () => {
  const { rate, steadyBeats, mostBeats } = crowdOf(3000, 3, 60);
  assert.ok(Math.abs(rate - SAMPLE_TARGET / (3000 + SAMPLE_TARGET)) < 0.01, `rate ${rate}`);
  assert.ok(steadyBeats <= 1.1 * SAMPLE_TARGET, `${steadyBeats} beats per interval once steady`);
  assert.ok(mostBeats <= 3000, `${mostBeats} beats per interval at most while arriving`);
});

test('10,000 players arriving over two minutes: estimate within 5%, beats near K', () => {
  const { steadyBeats, mostBeats } = crowdOf(10_000, 10, 120);
  assert.ok(steadyBeats <= 1.1 * SAMPLE_TARGET, `${steadyBeats} beats per interval once steady`);
  assert.ok(mostBeats <= 2 * SAMPLE_TARGET, `${mostBeats} beats per interval at most while arriving`);
});

test('50,000 players arriving over two minutes: estimate within 5%, beats bounded near K', () => {
  const { counter, crowd, steadyBeats, mostBeats } = crowdOf(50_000, 50, 120);
  assert.ok(steadyBeats <= 1.1 * SAMPLE_TARGET, `${steadyBeats} beats per interval once steady`);
  // Players keep the rate they read for up to a minute: a crowd growing tenfold within that
  // minute briefly sends about K·(1 + ln 10) beats per interval.
  assert.ok(mostBeats <= 3 * SAMPLE_TARGET, `${mostBeats} beats per interval at most while arriving`);
  // Minutes come out of the samples, sampled as well.
  const minutes = counter.drainMinutes();
  assert.ok(minutes.length >= 3);
  const last = minutes.at(-1)!;
  assert.ok(
    relativeError(last.watching_seconds / 60, crowd.truth().watching) <= 0.05,
    `minute average ${last.watching_seconds / 60}`,
  );
  assert.is(last.exact, false);
});

test('a crowd that jumps from 10,000 to 50,000 in 30 s, then shrinks to 10,000: rates change under the players; within 5% (15% while a lower rate is still in use)', () => {
  const { counter, crowd } = setup(7);
  crowd.run(60, 10_000 / 60);
  crowd.run(60);
  assertClose(counter.now(STREAM), crowd.truth().watching, 'steady 10,000');
  const before = counter.beacon(STREAM).rate;
  for (let t = 0; t < 30; t++) {
    crowd.tick(40_000 / 30);
    if (t % 5 === 4) assertClose(counter.now(STREAM), crowd.truth().watching, `jumping, second ${t + 1}`);
  }
  crowd.run(30);
  assertClose(counter.now(STREAM), crowd.truth().watching, 'at 50,000');
  const during = counter.beacon(STREAM).rate;
  assert.ok(during < before / 3, `rate ${before} → ${during}`);
  for (let t = 0; t < 30; t++) {
    crowd.leave(40_000 / 30);
    crowd.tick();
  }
  // Those who left still count until they are overdue (1.5 intervals + 2 s). Players learn the
  // higher rate only at their next embed read, so the lower one stays the one counted by for
  // 60 s + 2 intervals after it was last published: a smaller sample meanwhile (about 4.5%
  // relative standard error at 10,000), never the undercount of trusting the new rate at once.
  crowd.run(30);
  for (let t = 30; t < 120; t += 10) {
    const now = counter.now(STREAM);
    const error = now ? relativeError(now.watching, crowd.truth().watching) : 1;
    assert.ok(error <= 0.15, `${t} s after the crowd shrank: ${now?.watching} for ${crowd.truth().watching}`);
    crowd.run(10);
  }
  const after = assertClose(counter.now(STREAM), crowd.truth().watching, 'back at 10,000');
  assert.is(after.exact, false);
  assert.ok(counter.beacon(STREAM).rate > 2 * during, 'the rate rose again');
});

test('a pending stream: 10,000 waiting, then it goes live; waiting and watching each within 5%', () => {
  const { counter, crowd } = setup(11);
  crowd.pending().run(90, 10_000 / 90);
  crowd.run(30);
  const waiting = counter.now(STREAM);
  const truth = crowd.truth().waiting;
  assert.ok(waiting && relativeError(waiting.waiting, truth) <= 0.05, `waiting ${waiting?.waiting} for ${truth}`);
  assert.is(waiting?.watching, 0);
  crowd.goLive();
  crowd.run(30);
  const live = assertClose(counter.now(STREAM), truth, 'live');
  assert.is(live.waiting, 0);
});

test('200 trials of 10,000 players: at least 95% of estimates within 5% (about 99% expected)', () => {
  let within = 0;
  const errors: number[] = [];
  for (let trial = 0; trial < 200; trial++) {
    const { counter, crowd } = setup(1000 + trial);
    crowd.run(10, 1000);
    crowd.run(50);
    const now = counter.now(STREAM);
    const error = now ? relativeError(now.watching, 10_000) : 1;
    errors.push(error);
    if (error <= 0.05) within += 1;
  }
  const rms = Math.sqrt(errors.reduce((sum, e) => sum + e * e, 0) / errors.length);
  assert.ok(within >= 190, `${within} of 200 within 5%`);
  assert.ok(rms < 0.03, `relative standard error ${(100 * rms).toFixed(2)}% (designed 2%)`);
});

test.run();
