import { spawn } from 'node:child_process';
import { connect as netConnect, type Socket } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from '../../src/platform/db/connect.js';
import { freePort } from '../helpers/ports.js';
import { sleep } from '../helpers/streams.js';

/**
 * A connection whose TCP connect completes after the database monitor declared the database away
 * (and cut the pool's sockets) fails at once, as every later one does, instead of waiting out
 * connect_timeout on a frozen server (db/outage's rare 3 s answer: 3 s is the pools'
 * connect_timeout).
 *
 * The connect is held open deterministically: a stopped process's listener with a full accept
 * queue drops the SYN, and the client sends it again a second later, after the verdict.
 */
test('a connection that connects after the verdict fails at once with DATABASE_UNAVAILABLE', async () => {
  const port = await freePort();
  // A "server" that accepts and says nothing, like a frozen PostgreSQL; stopped, it accepts nothing.
  const server = spawn(
    process.execPath,
    [
      '-e',
      `require('net').createServer(() => {}).listen({ port: ${port}, host: '127.0.0.1', backlog: 1 }, () => console.log('up'))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const fillers: Socket[] = [];
  try {
    await new Promise((resolve) => server.stdout.once('data', resolve));
    server.kill('SIGSTOP');
    // Fill its accept queue: the first connect that does not complete at once has had its SYN dropped.
    for (let i = 0; i < 10; i++) {
      const s = netConnect({ port, host: '127.0.0.1' });
      s.on('error', () => undefined);
      const connected = await Promise.race([
        new Promise((r) => s.once('connect', () => r(true))),
        sleep(300).then(() => false),
      ]);
      if (!connected) {
        s.destroy();
        break;
      }
      fillers.push(s);
    }
    assert.ok(fillers.length < 10, 'the accept queue filled');

    let available = true;
    const sql = connect(`postgres://svc:unused@127.0.0.1:${port}/svc`, {
      max: 1,
      connectTimeoutSeconds: 6,
      available: () => available,
    });
    const started = performance.now();
    const query = sql`select 1`.then(
      () => null,
      (err: { code?: string }) => err,
    );
    await sleep(200);
    // The monitor's verdict while the connect waits for its SYN to be answered; then the server runs again.
    available = false;
    server.kill('SIGCONT');
    const err = await query;
    const ms = performance.now() - started;
    assert.is(err?.code, 'DATABASE_UNAVAILABLE', `failed with ${err?.code} after ${Math.round(ms)} ms`);
    assert.ok(ms < 5000, `failed after ${Math.round(ms)} ms, not at once (connect_timeout is 6 s)`);
    await sql.end({ timeout: 0 });
  } finally {
    for (const s of fillers) s.destroy();
    server.kill('SIGKILL');
  }
});

test.run();
