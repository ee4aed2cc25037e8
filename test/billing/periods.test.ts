import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  ceilTo,
  coveredBefore,
  floorTo,
  HOUR_MS,
  MINUTE_MS,
  periodQuantities,
  publishedSecondsBefore,
  storedByteSecondsBefore,
  type Interval,
  type PeriodQuantity,
} from '../../src/domains/ledger/billing/periods.js';
import { prng } from '../helpers/random.js';

const at = (iso: string) => Date.parse(iso);
const periods = (list: PeriodQuantity[]) =>
  list.map((p) => [new Date(p.periodStart).toISOString(), Number(p.quantity)]);
const total = (list: PeriodQuantity[]) => list.reduce((s, p) => s + p.quantity, 0n);

test('floorTo and ceilTo keep a boundary and move everything else to the neighbouring one', () => {
  const m = at('2026-11-21T10:05:00.000Z');
  assert.is(floorTo(m, MINUTE_MS), m);
  assert.is(ceilTo(m, MINUTE_MS), m);
  assert.is(floorTo(m + 1, MINUTE_MS), m);
  assert.is(ceilTo(m + 1, MINUTE_MS), m + MINUTE_MS);
  assert.is(floorTo(m - 1, HOUR_MS), at('2026-11-21T10:00:00.000Z'));
});

test('coveredBefore: only the part of each interval before t, an open interval up to t', () => {
  const sessions: Interval[] = [
    { start: 1_000, end: 3_000 },
    { start: 5_000, end: null },
  ];
  assert.is(coveredBefore(sessions, 0), 0);
  assert.is(coveredBefore(sessions, 2_000), 1_000);
  assert.is(coveredBefore(sessions, 4_000), 2_000);
  assert.is(coveredBefore(sessions, 9_000), 6_000);
});

test('a session straddling a minute boundary: each minute gets the whole seconds its running total passed', () => {
  // 1.2 s of publishing from 10:00:59.5: at 10:01:00 the running total is 0.5 s (0 whole), at 10:02:00 it is 1.2 s (1 whole).
  const sessions = [{ start: at('2026-11-21T10:00:59.500Z'), end: at('2026-11-21T10:01:00.700Z') }];
  const list = periodQuantities(
    at('2026-11-21T10:00:00Z'),
    at('2026-11-21T10:02:00Z'),
    MINUTE_MS,
    publishedSecondsBefore(sessions),
  );
  assert.equal(periods(list), [['2026-11-21T10:01:00.000Z', 1]]);
});

test('a session across UTC midnight is charged on both days, minute by minute', () => {
  const sessions = [{ start: at('2026-11-21T23:58:30Z'), end: at('2026-11-22T00:01:15Z') }];
  const list = periodQuantities(
    at('2026-11-21T23:58:00Z'),
    at('2026-11-22T00:02:00Z'),
    MINUTE_MS,
    publishedSecondsBefore(sessions),
  );
  assert.equal(periods(list), [
    ['2026-11-21T23:58:00.000Z', 30],
    ['2026-11-21T23:59:00.000Z', 60],
    ['2026-11-22T00:00:00.000Z', 60],
    ['2026-11-22T00:01:00.000Z', 15],
  ]);
});

test('minutes without publishing are left out; an open session counts up to the end of the range', () => {
  const sessions = [
    { start: at('2026-11-21T10:00:10Z'), end: at('2026-11-21T10:00:20Z') },
    { start: at('2026-11-21T10:03:30Z'), end: null },
  ];
  const list = periodQuantities(
    at('2026-11-21T10:00:00Z'),
    at('2026-11-21T10:05:00Z'),
    MINUTE_MS,
    publishedSecondsBefore(sessions),
  );
  assert.equal(periods(list), [
    ['2026-11-21T10:00:00.000Z', 10],
    ['2026-11-21T10:03:00.000Z', 30],
    ['2026-11-21T10:04:00.000Z', 60],
  ]);
});

test('storage: byte-seconds per hour of a recording ready and deleted within hours', () => {
  const life = { start: at('2026-11-21T10:59:00Z'), end: at('2026-11-21T12:00:30Z') };
  const list = periodQuantities(
    at('2026-11-21T10:00:00Z'),
    at('2026-11-21T13:00:00Z'),
    HOUR_MS,
    storedByteSecondsBefore(7, life),
  );
  assert.equal(periods(list), [
    ['2026-11-21T10:00:00.000Z', 7 * 60],
    ['2026-11-21T11:00:00.000Z', 7 * 3600],
    ['2026-11-21T12:00:00.000Z', 7 * 30],
  ]);
});

test('random sessions: the periods add up to the floor of the total, however the range is split into runs', () => {
  const rnd = prng(20261121);
  for (let c = 0; c < 300; c++) {
    const base = at('2026-11-21T23:30:00Z');
    const sessions: Interval[] = [];
    let t = base + Math.floor(rnd() * 90_000);
    for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) {
      const end = t + Math.floor(rnd() * 200_000);
      sessions.push({ start: t, end: k === 1 && rnd() < 0.3 ? null : end });
      t = end + Math.floor(rnd() * 100_000);
    }
    const open = sessions.some((s) => s.end === null);
    const to = ceilTo(t + 1, MINUTE_MS) + (open ? 3 * MINUTE_MS : 0);
    const from = floorTo(base, MINUTE_MS);
    const units = publishedSecondsBefore(sessions);
    const whole = periodQuantities(from, to, MINUTE_MS, units);
    const expected = BigInt(Math.floor(coveredBefore(sessions, to) / 1000));
    assert.is(total(whole), expected, `case ${c}`);
    assert.ok(
      whole.every((p) => p.quantity > 0n && p.quantity <= 60n),
      `case ${c}: a minute holds 1-60 seconds`,
    );
    // Metering in runs that stop at arbitrary minute boundaries gives the same periods.
    const cut = from + Math.floor(rnd() * ((to - from) / MINUTE_MS)) * MINUTE_MS;
    assert.equal(
      [...periodQuantities(from, cut, MINUTE_MS, units), ...periodQuantities(cut, to, MINUTE_MS, units)],
      whole,
      `case ${c}: split at ${cut}`,
    );
  }
});

test.run();
