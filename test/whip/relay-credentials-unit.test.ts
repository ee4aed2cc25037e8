import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sha256 } from '../../src/core/ids.js';
import { RelayCredentials } from '../../src/domains/engine/live/relay-credentials.js';

const grant = { keyHash: sha256('key-a'), via: 'whip' as const };

test('a relay credential stands for its key hash once, for its own stream only, until withdrawn', () => {
  const relays = new RelayCredentials();
  const a = relays.issue('str_a', grant);
  const b = relays.issue('str_a', grant);
  assert.is.not(a, b, 'each start gets its own');
  assert.not.match(a, /key-a/);
  assert.is(relays.redeem(a, 'str_b'), null, 'another stream');
  assert.equal(relays.redeem(a, 'str_a'), grant);
  assert.is(relays.redeem(a, 'str_a'), null, 'spent');
  relays.withdraw(b);
  assert.is(relays.redeem(b, 'str_a'), null, 'withdrawn');
  assert.is(relays.redeem('made-up', 'str_a'), null);
});

test('a credential whose relay does not hold the publisher is refused, and stays unspent', () => {
  const relays = new RelayCredentials();
  let holds = false;
  const c = relays.issue('str_a', { ...grant, via: 'srt' }, () => holds);
  assert.is(relays.redeem(c, 'str_a'), null);
  holds = true;
  assert.equal(relays.redeem(c, 'str_a'), { ...grant, via: 'srt' });
});

test.run();
