import { connect as netConnect, type Socket } from 'node:net';
import postgres from 'postgres';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestDatabase } from '../helpers/db.js';

/**
 * A connection whose socket closes while a statement's bytes wait for the next turn of the
 * event loop (postgres.js batches small writes with setImmediate) used to be mute for good:
 * postgres.js 3.4.9 cancelled the batching timer without forgetting it, so no later write on
 * that connection was ever sent. Its next connect sent no startup message and waited out
 * connect_timeout, again and again: an API worker answered 503 after 3 s while the database was
 * frozen, and would have after every reconnect (CI, db/outage). patches/postgres+3.4.9.patch
 * forgets the timer and the dead socket's bytes when the socket closes.
 */
test('a socket closed with a write pending: the connection connects again and answers at once', async () => {
  const db = await createTestDatabase();
  const sockets: Socket[] = [];
  const url = new URL(db.url);
  // `socket` is postgres.js API its types leave out (as in src/platform/db/connect.ts).
  const options = {
    max: 1,
    connect_timeout: 2,
    onnotice: () => {},
    socket: () =>
      new Promise<Socket>((resolve, reject) => {
        const s = netConnect({ host: url.hostname, port: Number(url.port) });
        s.once('connect', () => {
          sockets.push(s);
          resolve(s);
        });
        s.once('error', reject);
      }),
  };
  const sql = postgres(db.url, options);
  try {
    await sql`select 1`;
    // A statement made in the check phase (a setImmediate callback) has its write batched for the
    // next turn's check phase; the socket destroyed meanwhile emits 'close' in this turn's close phase.
    const pending = await new Promise<Promise<string>>((resolve) =>
      setImmediate(() => {
        const statement = sql`select 2`.then(
          () => 'answered',
          (err: { code?: string }) => err.code ?? String(err),
        );
        sockets.at(-1)?.destroy();
        resolve(statement);
      }),
    );
    assert.is(await pending, 'CONNECTION_CLOSED');
    const started = performance.now();
    const next = await sql`select 3 as three`.then(
      ([row]) => String(row?.three),
      (err: { code?: string }) => err.code ?? String(err),
    );
    const ms = Math.round(performance.now() - started);
    assert.is(next, '3', `the next statement after ${ms} ms`);
    assert.ok(ms < 1000, `the next statement took ${ms} ms (connect_timeout is 2 s)`);
  } finally {
    await sql.end({ timeout: 1 });
    await db.drop();
  }
});

test.run();
