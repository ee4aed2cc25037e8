import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RelayCredentials } from '../../src/domains/engine/live/relay-credentials.js';

test('a relay credential stands for its key once, for its own stream only, until withdrawn', () => {
  const relays = new RelayCredentials();
  const a = relays.issue('str_a', 'key-a');
  const b = relays.issue('str_a', 'key-a');
  assert.is.not(a, b, 'each start gets its own');
  assert.not.match(a, /key-a/);
  assert.is(relays.redeem(a, 'str_b'), null, 'another stream');
  assert.is(relays.redeem(a, 'str_a'), 'key-a');
  assert.is(relays.redeem(a, 'str_a'), null, 'spent');
  relays.withdraw(b);
  assert.is(relays.redeem(b, 'str_a'), null, 'withdrawn');
  assert.is(relays.redeem('made-up', 'str_a'), null);
});

test.run();
