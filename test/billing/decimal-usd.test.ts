import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addUsd, compareUsd, formatUsd, subtractUsd } from '../../src/core/money.js';
import { prng } from '../helpers/random.js';
import { micros } from '../helpers/usd.js';

test('subtractUsd: exact, six decimals, below zero too', () => {
  assert.is(subtractUsd('1.5', '0.25'), '1.250000');
  assert.is(subtractUsd('0', '0.000001'), '-0.000001');
  assert.is(subtractUsd('-0.5', '-0.5'), '0.000000');
  assert.is(subtractUsd('-2', '3.000001'), '-5.000001');
  assert.is(subtractUsd('10.000000', '10'), '0.000000');
  // Well past 2^53 micro-dollars: no float anywhere.
  assert.is(subtractUsd('99999999999999.999999', '0.000001'), '99999999999999.999998');
});

test('addUsd and compareUsd', () => {
  assert.is(addUsd('0.1', '0.2'), '0.300000');
  assert.is(addUsd('-0.000001', '0.000001'), '0.000000');
  assert.is(compareUsd('1.00', '1'), 0);
  assert.is(compareUsd('0.999999', '1.00'), -1);
  assert.is(compareUsd('-0.000001', '0'), -1);
  assert.is(compareUsd('0', '-0.5'), 1);
});

test('formatUsd keeps a negative sign and the significant decimals', () => {
  assert.is(formatUsd(subtractUsd('0', '0.0005')), '-0.0005');
  assert.is(formatUsd(subtractUsd('0', '12.5')), '-12.50');
  assert.is(formatUsd('0.000000'), '0.00');
});

test('random amounts: add, subtract and compare agree with BigInt micro-dollars', () => {
  const rnd = prng(42);
  const amount = () => {
    const m = BigInt(Math.floor(rnd() * 2e12)) * (rnd() < 0.3 ? -1n : 1n);
    const abs = m < 0n ? -m : m;
    return { m, s: `${m < 0n ? '-' : ''}${abs / 1_000_000n}.${(abs % 1_000_000n).toString().padStart(6, '0')}` };
  };
  for (let i = 0; i < 2000; i++) {
    const a = amount();
    const b = amount();
    assert.is(micros(addUsd(a.s, b.s)), a.m + b.m, `${a.s} + ${b.s}`);
    assert.is(micros(subtractUsd(a.s, b.s)), a.m - b.m, `${a.s} - ${b.s}`);
    assert.is(compareUsd(a.s, b.s), a.m === b.m ? 0 : a.m > b.m ? 1 : -1, `${a.s} <=> ${b.s}`);
  }
});

test.run();
