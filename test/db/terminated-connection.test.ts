import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from '../../src/platform/db/connect.js';
import { isDatabaseUnavailable } from '../../src/platform/db/errors.js';
import { createTestDatabase } from '../helpers/db.js';

/**
 * A backend terminated under a reserved connection (a transaction's) used to end the whole
 * process: postgres.js 3.4.9 wrote to the closed socket from a timer (porsager/postgres#1154,
 * #1208). patches/postgres+3.4.9.patch makes those statements fail with CONNECTION_CLOSED; this
 * test ends the process without it.
 */
test('a terminated backend under a reserved connection: the next statement fails as unavailable, the process lives, the pool recovers', async () => {
  const db = await createTestDatabase();
  const sql = connect(db.url, { max: 2 });
  try {
    const reserved = await sql.reserve();
    const [row] = await reserved<{ pid: number }[]>`select pg_backend_pid() as pid`;
    await db.sql`select pg_terminate_backend(${row?.pid as number})`;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const error = await reserved`select 1`.then(
      () => null,
      (err: unknown) => err,
    );
    assert.ok(isDatabaseUnavailable(error), `a statement on the dead connection: ${String(error)}`);
    reserved.release();
    // The pool connects again for the next statements (the stale-error bug, #1223, may fail one).
    let answered = 0;
    for (let i = 0; i < 5; i++)
      answered += await sql`select 1 as one`.then(
        () => 1,
        () => 0,
      );
    assert.ok(answered >= 4, `answered ${answered} of 5`);
    // A transaction whose backend is terminated mid-way fails the same way.
    const failed = await sql
      .begin(async (tx) => {
        const [own] = await tx<{ pid: number }[]>`select pg_backend_pid() as pid`;
        await db.sql`select pg_terminate_backend(${own?.pid as number})`;
        await new Promise((resolve) => setTimeout(resolve, 200));
        await tx`select 1`;
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    assert.ok(isDatabaseUnavailable(failed), String(failed));
    assert.is((await sql.begin((tx) => tx`select 1 as one`))[0]?.one, 1);
  } finally {
    await sql.end({ timeout: 1 });
    await db.drop();
  }
});

test.run();
