import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePorts } from '../../src/platform/http/ports.js';
import { ephemeralRange, freePort } from '../helpers/ports.js';

/**
 * Ports chosen by a test and ports the appliance chooses for itself must never meet: nginx binds
 * the test's ports after the appliance's API processes listen on theirs, and when they met nginx
 * could not start (issue 27: "nginx did not answer within 10 s", 1 start in about 400 with workers).
 */

test("freePort: outside the kernel's ephemeral range, free, never the same twice", async () => {
  const [low, high] = ephemeralRange();
  const ports: number[] = [];
  for (let i = 0; i < 200; i++) ports.push(await freePort());
  assert.is(new Set(ports).size, ports.length, 'no port twice');
  const inside = ports.filter((p) => p >= low && p <= high);
  assert.equal(inside, [], `ports the kernel may hand to a listen on port 0 or a connection (${low}-${high})`);
});

test('freePorts: never a port it was told to avoid, even when the kernel offers it', async () => {
  // The kernel offers ports at random from a few thousand: with 3000 of them to avoid it offers
  // avoided ones all the time (ignoring `avoid` returns one of 50 with a chance of 1 - 1e-11).
  const avoid = await freePorts('127.0.0.1', 3000);
  const ports = await freePorts('127.0.0.1', 50, avoid);
  assert.is(ports.length, 50);
  assert.is(new Set(ports).size, 50);
  assert.equal(
    ports.filter((p) => avoid.includes(p)),
    [],
  );
});

test.run();
