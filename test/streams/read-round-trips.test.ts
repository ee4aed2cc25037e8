import postgres from 'postgres';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ratesJson } from '../../src/domains/ledger/billing/queries.js';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { createStream, goLive } from '../helpers/streams.js';

/**
 * Issue 16: a read is one statement. Counted through postgres.js's debug hook, which sees every
 * statement the pool sends (it is read from the pool's options as each statement is built); the
 * key is read once first, so that the key cache answers the counted calls.
 */
const t = suite<{ env: TestApi }>('streams: round trips of a read');
t.before(async (ctx) => {
  ctx.env = await createTestApi({ limits: { trusted: { pending_streams: 1000, creations_per_hour: 1000 } } });
});
t.after(async (ctx) => {
  await ctx.env.close();
});

/** The statements the API's pool sent while `call` ran. */
async function statementsOf(env: TestApi, call: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  env.db.sql.options.debug = (_connection, query) => statements.push(query);
  try {
    await call();
  } finally {
    env.db.sql.options.debug = false;
  }
  return statements;
}

t('GET /v1/streams/{id}: one statement, pending, live or ended, and for a 404', async ({ env }) => {
  const account = await env.newAccount({ trusted: true });
  const get = (id: string) => env.call('GET', `/v1/streams/${id}`, { key: account.key });
  const pending = await createStream(env, account.key);
  assert.is((await get(pending.id)).status, 200, 'the key is cached by this read');

  let status = 0;
  assert.is((await statementsOf(env, async () => (status = (await get(pending.id)).status))).length, 1, 'pending');
  assert.is(status, 200);

  const live = await createStream(env, account.key);
  await goLive(env, account.id, live.id);
  let body: { status?: string; cost?: { delivery_counted_until?: unknown } } = {};
  assert.is(
    (await statementsOf(env, async () => (body = (await get(live.id)).body))).length,
    1,
    'live: the cost is in the statement too',
  );
  assert.is(body.status, 'live');

  await env.call('DELETE', `/v1/streams/${live.id}`, { key: account.key });
  assert.is((await statementsOf(env, () => get(live.id))).length, 1, 'ended');

  const other = await env.newAccount({ trusted: true });
  const theirs = await createStream(env, other.key);
  assert.is(
    (await statementsOf(env, async () => (status = (await get(theirs.id)).status))).length,
    1,
    "another account's stream",
  );
  assert.is(status, 404);
});

t('GET /v1/streams: one statement, with a cursor too; an unknown cursor costs a second', async ({ env }) => {
  const account = await env.newAccount({ trusted: true });
  const list = (query: string) => env.call('GET', `/v1/streams${query}`, { key: account.key });
  const first = await createStream(env, account.key);
  await createStream(env, account.key);
  assert.is((await list('')).status, 200, 'the key is cached by this read');

  let ids: string[] = [];
  const page = async (query: string) => (ids = (await list(query)).body.data.map((s: { id: string }) => s.id));
  assert.is((await statementsOf(env, () => page('?limit=1'))).length, 1, 'first page');
  assert.is((await statementsOf(env, () => page(`?limit=1&starting_after=${ids[0]}`))).length, 1, 'next page');
  assert.equal(ids, [first.id]);

  const unknown = 'str_00000000000000000000';
  let status = 0;
  assert.is(
    (await statementsOf(env, async () => (status = (await list(`?starting_after=${unknown}`)).status))).length,
    2,
  );
  assert.is(status, 400);
});

t(
  "a live stream's cost is planned once per connection: item_money runs a generic plan, not one planned again per call",
  async ({ env }) => {
    const account = await env.newAccount({ trusted: true });
    const live = await createStream(env, account.key);
    await goLive(env, account.id, live.id);
    // auto_explain logs the plan of each statement inside the function; a custom plan (planned for
    // this call's values) names the stream's id, a generic one only the function's parameter.
    const plans: string[] = [];
    const one = postgres(env.db.url, { max: 1, onnotice: (notice) => plans.push(String(notice.message)) });
    try {
      await one.unsafe("load 'auto_explain'");
      await one.unsafe(
        'set auto_explain.log_min_duration = 0; set auto_explain.log_nested_statements = on; set client_min_messages = log',
      );
      const rates = ratesJson(env.config.billing.rates);
      // Without the setting PostgreSQL plans the first five calls for their values, then chooses: the seventh tells.
      for (let call = 1; call <= 7; call++) {
        plans.length = 0;
        const items = await one`select item from item_money(array[${live.id}], now(), ${rates}::text::jsonb)`;
        assert.ok(items.length > 0, `call ${call} priced the stream's items`);
      }
      const inner = plans.filter((plan) => plan.includes('publish_sessions'));
      assert.is(inner.length, 1, `the seventh call's plan was logged: ${plans.join('\n')}`);
      assert.not.ok(inner[0]?.includes(live.id), `the seventh call was planned for its values: ${inner[0]}`);
    } finally {
      await one.end();
    }
  },
);

t.run();
