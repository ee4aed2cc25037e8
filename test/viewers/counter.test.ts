import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ManualClock } from '../../src/core/clock.js';
import type { BeatState } from '../../src/domains/audience/viewers/counter.js';
import { beaconRate, ViewerCounter, type ViewerCounterOptions } from '../../src/domains/audience/viewers/counter.js';

const A = 'str_aaaaaaaaaaaaaaaaaaaa';
const B = 'str_bbbbbbbbbbbbbbbbbbbb';
const START = new Date('2026-11-22T12:00:00.000Z');

function setup(opts: Partial<ViewerCounterOptions> = {}) {
  const clock = new ManualClock(START);
  const counter = new ViewerCounter({ clock, intervalSeconds: 15, ...opts });
  /** `count` players in state `st`, ids `${prefix}-<i>`, `u` spread evenly over [0, 1). */
  const beats = (stream: string, prefix: string, count: number, st: BeatState) => {
    for (let i = 0; i < count; i++)
      counter.beat(stream, { s: `${prefix}-${i}`, st, u: (i + 0.5) / count }, `net-${prefix}-${i}`);
  };
  return { clock, counter, beats };
}

test('exact regime: 300 players in mixed states are counted exactly at rate 1', () => {
  const { counter, beats } = setup();
  beats(A, 'play', 200, 'p');
  beats(A, 'pause', 50, 'z');
  beats(A, 'stall', 30, 'b');
  beats(A, 'wait', 20, 'w');
  beats(B, 'other', 7, 'p');
  assert.equal(counter.now(A), {
    watching: 280,
    waiting: 20,
    buffering_pct: 10.7,
    measured_at: START.toISOString(),
    exact: true,
  });
  assert.equal(counter.beacon(A), { rate: 1, interval_seconds: 15 });
  assert.is(counter.now(B)?.watching, 7);
});

test('nobody on the player: now is null and the beacon says every player reports', () => {
  const { counter } = setup({ intervalSeconds: 20 });
  assert.is(counter.now(A), null);
  assert.equal(counter.beacon(A), { rate: 1, interval_seconds: 20 });
});

test('the latest state of a player wins; a player is counted once', () => {
  const { clock, counter } = setup();
  counter.beat(A, { s: 'page-load-1', st: 'w', u: 0.3 });
  assert.equal([counter.now(A)?.watching, counter.now(A)?.waiting], [0, 1]);
  clock.advance(15);
  counter.beat(A, { s: 'page-load-1', st: 'p', u: 0.3 });
  clock.advance(15);
  counter.beat(A, { s: 'page-load-1', st: 'b', u: 0.3 });
  assert.equal(counter.now(A), {
    watching: 1,
    waiting: 0,
    buffering_pct: 100,
    measured_at: clock.now().toISOString(),
    exact: true,
  });
});

test('a silent player counts for 1.5 intervals + 2 s after its last beat, then no longer', () => {
  const { clock, counter } = setup();
  counter.beat(A, { s: 'stays-aaaa', st: 'p', u: 0.1 });
  counter.beat(A, { s: 'leaves-aaa', st: 'p', u: 0.2 });
  clock.advance(20);
  counter.beat(A, { s: 'stays-aaaa', st: 'p', u: 0.1 });
  clock.advance(4.5);
  assert.is(counter.now(A)?.watching, 2, '24.5 s after its last beat it still counts');
  clock.advance(0.5);
  assert.is(counter.now(A)?.watching, 1);
  clock.advance(20);
  assert.is(counter.now(A), null, 'both overdue');
});

test('buffering_pct: share of watching players stalled, one decimal; 0 when nobody watches', () => {
  const { counter, beats } = setup();
  beats(A, 'play', 2, 'p');
  beats(A, 'stall', 1, 'b');
  assert.is(counter.now(A)?.buffering_pct, 33.3);
  beats(B, 'wait', 5, 'w');
  assert.equal([counter.now(B)?.watching, counter.now(B)?.waiting, counter.now(B)?.buffering_pct], [0, 5, 0]);
});

test('rate: 1 up to 400, then K/(n+K) rounded down to 4 decimals, never below 0.0001', () => {
  assert.is(beaconRate(0), 1);
  assert.is(beaconRate(400), 1);
  assert.is(beaconRate(401), 0.8617); // 2500 / 2901 = 0.86177
  assert.is(beaconRate(2500), 0.5);
  assert.is(beaconRate(10_000), 0.2);
  assert.is(beaconRate(50_000), 0.0476); // 0.047619
  assert.is(beaconRate(1_000_000), 0.0024); // 0.002493
  assert.is(beaconRate(1e9), 0.0001);
  // The design: relative standard error sqrt((1 - r) / (n r)) = 1/sqrt(K) = 2% at every n.
  // Rounding the rate down to 4 decimals costs a little at very large n (2.04% at a million).
  for (const n of [401, 1000, 10_000, 100_000, 1_000_000]) {
    const r = beaconRate(n);
    const error = Math.sqrt((1 - r) / (n * r));
    assert.ok(error >= 0.0199 && error <= 0.0205, `n ${n}: rate ${r}, error ${error}`);
  }
});

test('above 400 the published rate falls, the count turns into an estimate from players below it', () => {
  const { clock, counter, beats } = setup();
  beats(A, 'play', 450, 'p');
  const { rate } = counter.beacon(A);
  assert.is(rate, beaconRate(450));
  assert.is(rate, 0.8474);
  const now = counter.now(A);
  // u is spread evenly: the players below the rate, scaled up by it.
  assert.is(now?.watching, Math.round(Math.ceil(450 * rate - 0.5) / rate));
  assert.is(now?.exact, false);
  // The lower rate stays the one counted by while players may still use it (60 s + 2 intervals).
  beats(A, 'play', 300, 'p');
  clock.advance(20);
  beats(A, 'play', 300, 'p');
  assert.is(counter.now(A)?.exact, false);
  for (let elapsed = 0; elapsed < 80; elapsed += 10) {
    clock.advance(10);
    beats(A, 'play', 300, 'p');
  }
  assert.equal([counter.now(A)?.watching, counter.now(A)?.exact], [300, true]);
});

test('beats above every rate in use are dropped, freeing room: a stream tracks a bounded number of players', () => {
  const { counter, beats } = setup({ exactUpTo: 10, sampleTarget: 10, maxReportersPerStream: 20 });
  beats(A, 'first', 20, 'p');
  beats(A, 'refused', 5, 'p');
  assert.is(counter.now(A)?.watching, 20, 'the first 20 are tracked, the rest refused');
  const { rate } = counter.beacon(A);
  assert.is(rate, 0.3333);
  // u = (i + 0.5) / 20: 7 of the first are below the rate; the 13 above it beat again and are dropped.
  for (let i = 7; i < 20; i++) counter.beat(A, { s: `first-${i}`, st: 'p', u: (i + 0.5) / 20 });
  for (let i = 0; i < 10; i++) counter.beat(A, { s: `newcomer-${i}`, st: 'p', u: 0.01 });
  assert.equal([counter.now(A)?.watching, counter.now(A)?.exact], [Math.round(17 / rate), false]);
  for (const u of [1, -0.1, Number.NaN]) counter.beat(B, { s: 'bad-u-aaaa', st: 'p', u });
  assert.is(counter.now(B), null);
});

test('minutes: viewer-seconds of the samples (average × 60); watched is playing and buffering, not paused', () => {
  const { clock, counter, beats } = setup({ sampleSeconds: 5 });
  // 12:00: 10 playing, 4 paused, 2 buffering, 3 waiting on A, 1 playing on B, the whole minute.
  for (let t = 0; t < 60; t += 5) {
    if (t % 15 === 0) {
      beats(A, 'play', 10, 'p');
      beats(A, 'pause', 4, 'z');
      beats(A, 'stall', 2, 'b');
      beats(A, 'wait', 3, 'w');
      beats(B, 'gone', 1, 'p');
    }
    counter.sample();
    clock.advance(5);
  }
  // 12:01: only the stalled two keep beating; the playing ten beat once more at 12:01:00. Silent
  // since 12:00:45 the others are overdue after 12:01:09.5 (2 of 12 samples); the ten after
  // 12:01:24.5 (5 samples).
  for (let t = 0; t < 60; t += 5) {
    if (t === 0) beats(A, 'play', 10, 'p');
    if (t % 15 === 0) beats(A, 'stall', 2, 'b');
    counter.sample();
    clock.advance(5);
  }
  const row = (
    stream: string,
    minute: string,
    watching: number,
    waiting: number,
    buffering: number,
    watched: number,
  ) => ({
    stream_id: stream,
    minute: new Date(`2026-11-22T12:${minute}:00.000Z`),
    watching_seconds: watching,
    waiting_seconds: waiting,
    buffering_seconds: buffering,
    watched_seconds: watched,
    exact: true,
  });
  assert.equal(counter.drainMinutes(), [
    row(A, '00', 16 * 60, 3 * 60, 2 * 60, 12 * 60),
    row(B, '00', 60, 0, 0, 60),
    row(A, '01', (10 * 5 + 2 * 12 + 4 * 2) * 5, 3 * 2 * 5, 2 * 12 * 5, (10 * 5 + 2 * 12) * 5),
    row(B, '01', 2 * 5, 0, 0, 2 * 5),
  ]);
  assert.is(counter.drainMinutes().length, 0, 'drained once');

  // 12:02: B has nobody (no row); A's stalled two count until 12:02:09.5.
  for (let t = 0; t < 60; t += 5) {
    counter.sample();
    clock.advance(5);
  }
  assert.equal(counter.drainMinutes(), [row(A, '02', 2 * 2 * 5, 0, 2 * 2 * 5, 2 * 2 * 5)]);
});

test('open minutes: left open until the minute is over, closed early by forget or a partial drain (rows add up)', () => {
  const { clock, counter, beats } = setup({ sampleSeconds: 5 });
  beats(A, 'play', 6, 'p');
  beats(B, 'play', 3, 'p');
  counter.sample();
  clock.advance(5);
  counter.sample();
  assert.is(counter.undrainedWatchedSeconds(A), 6 * 10);
  assert.equal(counter.drainMinutes(), [], 'the minute is not over');
  counter.forget(A);
  assert.is(counter.now(A), null);
  assert.equal(
    counter.drainMinutes({ partial: false }).map((r) => [r.stream_id, r.watching_seconds]),
    [[A, 60]],
  );
  assert.equal(
    counter.drainMinutes({ partial: true }).map((r) => [r.stream_id, r.watching_seconds]),
    [[B, 30]],
  );
  clock.advance(5);
  counter.sample();
  clock.advance(60);
  assert.equal(
    counter.drainMinutes().map((r) => [r.stream_id, r.minute.toISOString(), r.watching_seconds]),
    [[B, START.toISOString(), 15]],
  );
  // The weight of a sample is the time since the previous one, at most two sampling periods.
  beats(B, 'play', 3, 'p');
  counter.sample();
  assert.equal(
    counter.drainMinutes({ partial: true }).map((r) => r.watching_seconds),
    [3 * 10],
  );
});

const BUDGET = { burst: 10, perMinute: 6, max: 20 };

test('one address: a burst of new viewers, then a steady refill; its excess is refused and not counted; other addresses are not affected', () => {
  const { clock, counter } = setup({ perAddress: BUDGET });
  const from = (address: string, prefix: string, count: number) =>
    Array.from({ length: count }, (_, i) => counter.beat(A, { s: `${prefix}-${i}`, st: 'p', u: 0.5 }, address));
  assert.equal(from('198.51.100.7', 'office', 10), Array(10).fill(null));
  const refused = from('198.51.100.7', 'forged', 5);
  // Retry after the bucket holds one more viewer: 60 s / 6 per minute.
  assert.equal(refused, Array(5).fill(10));
  assert.is(counter.now(A)?.watching, 10);
  assert.equal(from('198.51.100.8', 'neighbour', 10), Array(10).fill(null));
  assert.is(counter.now(A)?.watching, 20);
  // A player already counted beats as often as it likes: it is one viewer, and its beats are never refused.
  for (let i = 0; i < 50; i++) assert.is(counter.beat(A, { s: 'office-0', st: 'p', u: 0.5 }, '198.51.100.7'), null);
  assert.is(counter.now(A)?.watching, 20);
  // The refill: 6 a minute.
  clock.advance(10);
  assert.equal(from('198.51.100.7', 'later', 2), [null, 10]);
  assert.is(counter.now(A)?.watching, 21);
});

test('one address counts for at most `max` viewers at once, however long it keeps forged players alive', () => {
  const { clock, counter } = setup({ perAddress: BUDGET });
  let forged = 0;
  for (let round = 0; round < 20; round++) {
    // Every player of the address beats again each interval (kept alive); new ones as the bucket allows.
    for (let i = 0; i < forged; i++) counter.beat(A, { s: `forged-${i}`, st: 'p', u: 0 }, '203.0.113.9');
    while (counter.beat(A, { s: `forged-${forged}`, st: 'p', u: 0 }, '203.0.113.9') === null) forged++;
    assert.ok((counter.now(A)?.watching ?? 0) <= BUDGET.max, `round ${round}: ${counter.now(A)?.watching}`);
    clock.advance(15);
  }
  assert.is(counter.now(A)?.watching, BUDGET.max);
});

test('sampled: a forged u below the rate buys no more than the same crowd would; the address is capped in estimated viewers', () => {
  const { counter, beats } = setup({ exactUpTo: 10, sampleTarget: 10, perAddress: BUDGET });
  beats(A, 'crowd', 30, 'p');
  const { rate } = counter.beacon(A);
  assert.is(rate, 0.25);
  const honest = counter.now(A)?.watching ?? 0;
  // Each new forged player would count 1 / rate = 4 viewers: the burst of 10 buys two of them, the cap 20 five.
  const answers = Array.from({ length: 10 }, (_, i) =>
    counter.beat(A, { s: `forged-${i}`, st: 'p', u: 0 }, '203.0.113.9'),
  );
  assert.is(answers.filter((a) => a === null).length, 2);
  assert.is((counter.now(A)?.watching ?? 0) - honest, 8);
});

test('watch_minutes_limit leaves out the address that watched most on this node', () => {
  const { clock, counter } = setup({ sampleSeconds: 5, perAddress: BUDGET });
  for (let t = 0; t < 60; t += 5) {
    if (t % 15 === 0) {
      for (let i = 0; i < 10; i++) counter.beat(A, { s: `office-${i}`, st: 'p', u: 0.5 }, '198.51.100.7');
      for (let i = 0; i < 2; i++) counter.beat(A, { s: `home-${i}`, st: 'p', u: 0.5 }, '198.51.100.8');
    }
    counter.sample();
    clock.advance(5);
  }
  assert.is(counter.undrainedWatchedSeconds(A), 12 * 60);
  assert.is(counter.largestAddressWatchedSeconds(A), 10 * 60);
});

test.run();
