import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { BROWSER_BLOCKED_PORTS } from '../../src/config/browser-ports.js';

/**
 * Ports for tests come from below the kernel's ephemeral range: a port the kernel picks for a
 * listen on port 0 (the appliance's own API ports with workers, any other test's) or for an
 * outgoing connection is never one of them. Picking them with a listen on port 0 too, as before,
 * gave one start in about 400 a port that the appliance then took for itself before nginx bound
 * it (or the same port twice), and nginx could not start (issue 27).
 */
const LOWEST = 10_000;

/** The kernel's ephemeral range, /proc/sys/net/ipv4/ip_local_port_range ("32768\t60999"). */
export function ephemeralRange(): [number, number] {
  const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
  return [low as number, high as number];
}

const [ephemeralLow] = ephemeralRange();
if (ephemeralLow - LOWEST < 1000)
  throw new Error(
    `the ephemeral port range starts at ${ephemeralLow}: the tests need ports ${LOWEST}-${ephemeralLow - 1} outside it`,
  );
const span = ephemeralLow - LOWEST;
/** The next port to try: each process starts somewhere else, so that test processes side by side rarely meet. */
let next = LOWEST + Math.floor(Math.random() * span);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port free on loopback right now, outside the ephemeral range and not one browsers refuse,
 * never handed out twice in this process.
 */
export async function freePort(): Promise<number> {
  for (let tried = 0; tried < span; tried++) {
    const port = next;
    next = next + 1 >= ephemeralLow ? LOWEST : next + 1;
    // The settings refuse them for the player, CDN and API; the browser tests would fail on them.
    if (BROWSER_BLOCKED_PORTS.has(port)) continue;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in ${LOWEST}-${ephemeralLow - 1}`);
}
