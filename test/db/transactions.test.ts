import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

const t = suite<{ db: TestDatabase; sql: Sql }>('db: transactions under a saturated pool');
t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  await ctx.db.sql`create table tx_probe (id serial primary key, note text not null)`;
  // A small pool: 250 concurrent readers saturate it, as 200 readers saturate the appliance's 20.
  ctx.sql = connect(ctx.db.url, { max: 2 });
});
t.after(async (ctx) => {
  await ctx.sql.end({ timeout: 5 });
  await ctx.db.drop();
});

/**
 * postgres.js pipelines a statement onto a busy connection when every connection is busy; a
 * BEGIN pipelined that way was not reserved for its transaction (UNSAFE_TRANSACTION), and
 * plain statements could run inside someone else's transaction. A read outside any
 * transaction has no transaction id; inside a writer's, it sees the writer's.
 */
t(
  'transactions and plain statements under load: no UNSAFE_TRANSACTION, no statement inside a foreign transaction',
  async ({ sql }) => {
    const errors: string[] = [];
    let inForeignTransaction = 0;
    let transactions = 0;
    let stop = false;
    const reader = async () => {
      while (!stop) {
        try {
          const [row] = await sql<
            { outside: boolean }[]
          >`select pg_current_xact_id_if_assigned() is null as outside, (select count(*) from tx_probe) as n`;
          if (!row?.outside) inForeignTransaction++;
        } catch (err) {
          errors.push(String((err as { code?: string }).code ?? err));
        }
      }
    };
    const writer = async () => {
      while (!stop) {
        try {
          await sql.begin(async (tx) => {
            await tx`insert into tx_probe (note) values ('a')`;
            await new Promise((r) => setTimeout(r, 1));
            await tx`update tx_probe set note = 'b' where id = (select max(id) from tx_probe)`;
          });
          transactions++;
        } catch (err) {
          errors.push(String((err as { code?: string }).code ?? err));
        }
      }
    };
    const loops = [...Array.from({ length: 250 }, reader), ...Array.from({ length: 8 }, writer)];
    await new Promise((r) => setTimeout(r, 3000));
    stop = true;
    await Promise.all(loops);
    assert.equal(errors.slice(0, 5), [], `${errors.length} errors`);
    assert.is(inForeignTransaction, 0);
    assert.ok(transactions > 50, `${transactions} transactions`);
  },
);

t.run();
