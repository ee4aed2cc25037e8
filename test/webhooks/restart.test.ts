import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { startAppliance, type RunningAppliance } from '../../src/composition/appliance.js';
import { resolveConfig, type Config } from '../../src/config/config.js';
import { ManualClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { lockStream } from '../../src/domains/streams/model.js';
import * as transitions from '../../src/domains/streams/transitions.js';
import type { DeliveryRow } from '../../src/domains/back-office/webhooks/queries.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { freePort } from '../helpers/ports.js';
import { Receiver } from '../helpers/receiver.js';

interface Ctx {
  db: TestDatabase;
  dir: string;
  config: Config;
  clock: ManualClock;
  receiver: Receiver;
  running: RunningAppliance | null;
  key: string;
  accountId: string;
}

/** The whole appliance (`startAppliance`: API on a port, jobs, dispatcher) over one database, stopped and started again. */
const t = suite<Ctx>('webhooks: appliance stopped with deliveries pending and started again');
t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-'));
  ctx.config = resolveConfig(ctx.dir, {
    database_url: ctx.db.url,
    api_port: await freePort(),
    allow_private_webhooks: true,
  });
  ctx.clock = new ManualClock(new Date());
  ctx.receiver = await Receiver.start();
  ctx.running = null;
  const accounts = new AccountsService(ctx.db.sql, ctx.clock);
  const account = await accounts.create({ name: 'Restart', creditUsd: '50' });
  ctx.accountId = account.id;
  ctx.key = (await accounts.createApiKey(account.id)).key;
});
t.after(async (ctx) => {
  await ctx.running?.stop();
  await ctx.receiver.close();
  await ctx.db.drop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

const start = async (ctx: Ctx) => {
  ctx.running = await startAppliance({
    config: ctx.config,
    secrets: { postgres_password: 'unused', signing_key: 'test', data_key: 'test' },
    logger: createLogger('silent'),
    clock: ctx.clock,
    webhooks: { pollMs: 50 },
  });
};
const stop = async (ctx: Ctx) => {
  await ctx.running?.stop();
  ctx.running = null;
};

async function api(ctx: Ctx, method: string, path: string, body?: unknown) {
  const res = await fetch(`${ctx.config.publicUrls.base_url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ctx.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const deliveries = (ctx: Ctx) => ctx.db.sql<DeliveryRow[]>`select * from webhook_deliveries order by seq`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

t('pending retries and events made while stopped are sent after the restart, each once more at most', async (ctx) => {
  const { receiver } = ctx;
  await start(ctx);
  const e = await api(ctx, 'POST', '/v1/webhooks', { url: receiver.url('/restart') });
  assert.is(e.status, 201);
  receiver.expectSecrets('/restart', e.body.secret);
  receiver.script('/restart', { status: 500 });
  const a = (await api(ctx, 'POST', '/v1/streams', { name: 'a' })).body;
  const b = (await api(ctx, 'POST', '/v1/streams', { name: 'b' })).body;
  await api(ctx, 'DELETE', `/v1/streams/${a.id}`);
  await receiver.waitFor('/restart', 1);
  await until('attempt 1 recorded', async () => (await deliveries(ctx))[0]?.attempts === 1);
  await stop(ctx);

  // While the appliance is down: the retry comes due, and another stream is cancelled.
  await ctx.db.sql.begin(async (tx) =>
    transitions.cancel(tx, (await lockStream(tx, ctx.accountId, b.id))!, ctx.clock.now()),
  );
  ctx.clock.advance(5);
  await sleep(200);
  assert.is(receiver.on('/restart').length, 1, 'nothing is sent while stopped');

  await start(ctx);
  const reqs = await receiver.waitFor('/restart', 3);
  await until('both succeeded', async () => (await deliveries(ctx)).every((d) => d.status === 'succeeded'));
  await sleep(300);
  assert.is(receiver.on('/restart').length, 3, 'nothing sent twice needlessly');
  const [first, second] = await deliveries(ctx);
  assert.equal([first?.attempts, second?.attempts], [2, 1]);
  const ids = reqs.map((r) => r.headers['webhook-id']);
  assert.is(ids.filter((id) => id === first?.event_id).length, 2, 'the retried event, same webhook-id');
  assert.is(ids.filter((id) => id === second?.event_id).length, 1);
  assert.ok(
    reqs.every((r) => r.verified[e.body.secret]),
    'every request verifies',
  );
  assert.equal(JSON.parse(reqs.find((r) => r.headers['webhook-id'] === second?.event_id)!.body).data.id, b.id);
});

t('a stop while an attempt is in flight waits for it and records it: not sent again after the restart', async (ctx) => {
  const { receiver } = ctx;
  const e = (await api(ctx, 'POST', '/v1/webhooks', { url: receiver.url('/inflight'), events: ['stream.cancelled'] }))
    .body;
  receiver.script('/inflight', { status: 200, delayMs: 600 });
  const s = (await api(ctx, 'POST', '/v1/streams', {})).body;
  await api(ctx, 'DELETE', `/v1/streams/${s.id}`);
  await receiver.waitFor('/inflight', 1);
  await stop(ctx);
  const [row] = await ctx.db.sql<DeliveryRow[]>`select * from webhook_deliveries where endpoint_id = ${e.id}`;
  assert.equal([row?.status, row?.attempts, row?.leased_until], ['succeeded', 1, null]);
  await start(ctx);
  ctx.clock.advance(120);
  await sleep(300);
  assert.is(receiver.on('/inflight').length, 1);
});

t('a dispatcher that died mid-attempt: its lease runs out and the delivery is sent by the next one', async (ctx) => {
  const { receiver } = ctx;
  const e = (await api(ctx, 'POST', '/v1/webhooks', { url: receiver.url('/crashed'), events: ['stream.expired'] }))
    .body;
  const d = (await api(ctx, 'POST', `/v1/webhooks/${e.id}/test`)).body;
  await receiver.waitFor('/crashed', 1);
  await until(
    'sent',
    async () =>
      (await ctx.db.sql`select 1 from webhook_deliveries where id = ${d.id} and status = 'succeeded'`).length === 1,
  );
  await stop(ctx);
  // As a dispatcher that crashed after taking it would leave it: pending, leased for 70 s.
  await ctx.db
    .sql`update webhook_deliveries set status = 'pending', next_attempt_at = ${ctx.clock.now()}, leased_until = ${new Date(ctx.clock.now().getTime() + 70_000)} where id = ${d.id}`;
  await start(ctx);
  await sleep(300);
  assert.is(receiver.on('/crashed').length, 1, 'not while the lease holds');
  ctx.clock.advance(71);
  await receiver.waitFor('/crashed', 2);
});

t.run();
