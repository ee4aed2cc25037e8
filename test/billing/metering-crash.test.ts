import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { isAlive } from '../../src/platform/process/proc.js';
import { createEmptyDatabase, makeDataDir, svc, ok } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { ingestPrice, sumUsd } from '../helpers/usd.js';

/**
 * The appliance as an operator runs it (`svc up --detach`), killed with SIGKILL under a live
 * stream while metering charges it: once with a metering run stopped half-way through writing
 * charges, once right after a run wrote them, and once while the publisher leaves and a minute
 * ends. After the restarts and the end of each stream its ledger is what its publish sessions
 * say: every minute charged once with the seconds published in it, none skipped.
 */
interface Ctx {
  dir: string;
  remove: () => void;
  dropDb: () => Promise<void>;
  sql: Sql;
  api: number;
  rtmp: number;
  apiKey: string;
  accountId: string;
  streamId: string;
  streamKey: string;
  clip: string;
  publisher: Publisher;
  startedAt: number;
}

const RATE = '0.003';
const t = suite<Ctx>('metering: kill -9 of the appliance mid-run, every minute charged once');

const up = async (ctx: Ctx) => ok(await svc(['up', '--detach', '--data-dir', ctx.dir], { timeoutMs: 60_000 }));

async function call(
  ctx: Ctx,
  method: string,
  path: string,
): Promise<{ status: number; body: Record<string, unknown> & { cost?: Record<string, unknown> } }> {
  const res = await fetch(`http://127.0.0.1:${ctx.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.apiKey}` },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function killSvc(ctx: Ctx): Promise<void> {
  const pid = Number(readFileSync(join(ctx.dir, 'run', 'svc.pid'), 'utf8').split('\n')[0]);
  process.kill(pid, 'SIGKILL');
  await waitFor('svc up gone', async () => !isAlive(pid), 5000, 20);
}

const chargeCount = async (ctx: Ctx) =>
  (await ctx.sql<{ n: number }[]>`select count(*)::int as n from charges where stream_id = ${ctx.streamId}`)[0]?.n ?? 0;
const lease = async (ctx: Ctx) =>
  (await ctx.sql<{ running_until: Date | null }[]>`select running_until from job_runs where name = 'metering'`)[0]
    ?.running_until ?? null;

/** Whole seconds of `sessions` before t, as the spec's ingest_seconds counts them. */
function secondsBefore(sessions: { start: number; end: number }[], t: number): number {
  const ms = sessions.reduce((sum, s) => sum + Math.max(0, Math.min(s.end, t) - s.start), 0);
  return Math.floor(ms / 1000);
}

/**
 * The ledger of a finished, metered stream is its publish sessions: each minute charged once with
 * the whole seconds published in it (none skipped), priced once, and the account's total is its ledger's.
 */
async function ledgerMatchesSessions(ctx: Ctx, streamId: string) {
  const sessions = (
    await ctx.sql<
      { started_at: Date; ended_at: Date }[]
    >`select started_at, ended_at from publish_sessions where stream_id = ${streamId} order by started_at`
  ).map((s) => ({
    start: s.started_at.getTime(),
    end: s.ended_at.getTime(),
  }));
  const charges = await ctx.sql<{ period_start: Date; quantity: string; amount_usd: string }[]>`
    select period_start, quantity::text, amount_usd::text from charges where stream_id = ${streamId} and item = 'abr_basic' order by period_start`;
  const expected: { minute: string; quantity: number }[] = [];
  const first = sessions[0]?.start ?? 0;
  const last = sessions.at(-1)?.end ?? 0;
  for (let m = Math.floor(first / 60_000) * 60_000; m < last; m += 60_000) {
    const quantity = secondsBefore(sessions, m + 60_000) - secondsBefore(sessions, m);
    if (quantity > 0) expected.push({ minute: new Date(m).toISOString(), quantity });
  }
  assert.equal(
    charges.map((c) => ({ minute: c.period_start.toISOString(), quantity: Number(c.quantity) })),
    expected,
    'each minute charged once with its seconds',
  );
  const total = secondsBefore(sessions, Infinity);
  const amount = sumUsd(charges.map((c) => c.amount_usd));
  assert.is(amount, ingestPrice(total, RATE));
  const [account] = await ctx.sql<{ charged: string; ledger: string }[]>`
    select charged_usd::text as charged, (select coalesce(sum(amount_usd), 0) from charges where account_id = a.id)::text as ledger from accounts a where id = ${ctx.accountId}`;
  assert.is(
    sumUsd([account?.charged ?? 'none']),
    sumUsd([account?.ledger ?? 'none']),
    "the account's charged total is its ledger's",
  );
  const stream = await call(ctx, 'GET', `/v1/streams/${streamId}`);
  assert.is(stream.body.cost?.ingest_seconds, total);
  assert.is(stream.body.cost?.ingest_usd, amount);
  return { sessions, total, amount, minutes: charges.length };
}

t.before(async (ctx) => {
  Object.assign(ctx, makeDataDir());
  const db = await createEmptyDatabase();
  ctx.dropDb = db.drop;
  ctx.sql = connect(db.url, { max: 3 });
  ctx.api = await freePort();
  ctx.rtmp = await freePort();
  const ports = [
    '--api-port',
    `${ctx.api}`,
    '--rtmp-port',
    `${ctx.rtmp}`,
    '--cdn-port',
    `${await freePort()}`,
    '--player-port',
    `${await freePort()}`,
  ];
  ok(await svc(['init', '--data-dir', ctx.dir, '--database-url', db.url, '--no-install', ...ports]));
  const file = join(ctx.dir, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  // Live ticks of 5 s: after a restart the first metering runs (every 2 s) come before the live
  // tick has checked the publishers twice, as they may in production (3 s and 10 s).
  writeFileSync(
    file,
    JSON.stringify(
      {
        ...config,
        live: { segment_seconds: 1, window_segments: 3, sample_seconds: 5, reconnect_window_seconds: 60 },
        billing: { meter_seconds: 2 },
      },
      null,
      2,
    ),
  );
  await up(ctx);
  const account = ok(
    await svc(['accounts', 'create', '--name', 'Crash', '--credit', '50', '--json', '--data-dir', ctx.dir]),
  ).json;
  ctx.accountId = account.id;
  ctx.apiKey = ok(await svc(['api-keys', 'create', '--account', account.id, '--json', '--data-dir', ctx.dir])).json.key;
  const created = await fetch(`http://127.0.0.1:${ctx.api}/v1/streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.apiKey}` },
  });
  const s = (await created.json()) as { id: string; stream_key: string };
  ctx.streamId = s.id;
  ctx.streamKey = s.stream_key;
  ctx.clip = await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 });
  ctx.startedAt = Date.now();
  ctx.publisher = publish(`rtmp://127.0.0.1:${ctx.rtmp}/live/${ctx.streamKey}`, ctx.clip, { loop: true });
  await waitFor(
    'live',
    async () => (await call(ctx, 'GET', `/v1/streams/${ctx.streamId}`)).body.status === 'live',
    30_000,
  );
});

t.after(async (ctx) => {
  await ctx.publisher?.kill();
  await svc(['down', '--data-dir', ctx.dir]);
  await ctx.sql?.end();
  await ctx.dropDb?.();
  ctx.remove();
});

t(
  'kill -9 while a metering run is writing charges: nothing of it stays, the next appliance charges the minute',
  async (ctx) => {
    // The run writes its charges, then adds them to the account: holding the account's row stops it
    // there. Taken when the first minute has ended, a few seconds before it is charged (a session
    // idle in a transaction is cut after 60 s).
    const [row] = await ctx.sql<{ went_live_at: Date }[]>`select went_live_at from streams where id = ${ctx.streamId}`;
    const firstMinuteEnd = Math.ceil(((row?.went_live_at.getTime() ?? 0) + 1) / 60_000) * 60_000;
    await new Promise((r) => setTimeout(r, Math.max(0, firstMinuteEnd + 1000 - Date.now())));
    let release = () => {};
    let locked = () => {};
    const taken = new Promise<void>((r) => (locked = r));
    const holding = ctx.sql.begin(async (tx) => {
      await tx`select 1 from accounts where id = ${ctx.accountId} for update`;
      locked();
      await new Promise<void>((r) => (release = r));
    });
    holding.catch(() => undefined);
    await taken;
    await waitFor(
      'a metering run blocked half-way through writing charges',
      async () => {
        const rows =
          await ctx.sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%insert into charges%'`;
        return rows.length > 0;
      },
      30_000,
      100,
    );
    await killSvc(ctx);
    release();
    await holding;
    assert.is(await chargeCount(ctx), 0, 'the killed run charged nothing');
    const heldUntil = await lease(ctx);
    assert.ok(heldUntil, 'the killed run holds the lease');

    await up(ctx);
    const restarted = Date.now();
    await waitFor('the first charges after the restart', async () => (await chargeCount(ctx)) > 0, 90_000, 20);
    const after = (Date.now() - restarted) / 1000;
    console.log(
      `\n  killed mid-run (lease held until ${heldUntil?.toISOString()}); charged again ${after.toFixed(1)} s after the restart`,
    );
    // The credit rules run with the charges: prepaid streams out of credit must still end within a minute.
    assert.ok(after < 60, `metering ran again ${after} s after the restart`);
  },
);

t(
  'kill -9 right after a run wrote charges, then the stream ends: every minute once, none skipped, totals exact',
  async (ctx) => {
    // The previous test returns as soon as charges appear: this kill follows the run that wrote them.
    await killSvc(ctx);
    const heldUntil = await lease(ctx);
    await up(ctx);
    assert.is(ctx.publisher.proc.exitCode, null, 'the publisher stayed connected through both kills');
    const ended = await call(ctx, 'DELETE', `/v1/streams/${ctx.streamId}`);
    assert.is(ended.status, 200);
    const dropped = await ctx.publisher.exited.then(() => Date.now());
    const restarted = Date.now();
    await waitFor(
      'charged to the end',
      async () => {
        const rows =
          await ctx.sql`select 1 from streams where id = ${ctx.streamId} and ingest_metered_until >= ended_at`;
        return rows.length > 0;
      },
      90_000,
      100,
    );
    const after = (Date.now() - restarted) / 1000;
    console.log(
      `  killed after a run (lease ${heldUntil ? `held until ${heldUntil.toISOString()}` : 'given back'}); charged to the end ${after.toFixed(1)} s after the restart`,
    );
    assert.ok(after < 60, `metering ran again ${after} s after the restart`);

    const { sessions, total, amount, minutes } = await ledgerMatchesSessions(ctx, ctx.streamId);
    assert.is(sessions.length, 1, 'one publish session: the kills did not cut it');
    const session = sessions[0] as { start: number; end: number };
    const published = (dropped - ctx.startedAt) / 1000;
    assert.ok(
      Math.abs((session.end - session.start) / 1000 - published) <= 2,
      `session ${(session.end - session.start) / 1000} s, publisher ran ${published} s`,
    );
    console.log(
      `  ${minutes} minutes charged, ${total} s = ${amount} USD; session ${((session.end - session.start) / 1000).toFixed(2)} s, publisher ran ${published.toFixed(2)} s`,
    );
  },
);

t(
  'the publisher leaves while the appliance is down and a minute closes: the restarted appliance does not charge the time it was gone',
  async (ctx) => {
    const created = await call(ctx, 'POST', '/v1/streams');
    assert.is(created.status, 201);
    const id = created.body.id as string;
    const publisher = publish(`rtmp://127.0.0.1:${ctx.rtmp}/live/${created.body.stream_key as string}`, ctx.clip, {
      loop: true,
    });
    ctx.publisher = publisher;
    await waitFor('live', async () => (await call(ctx, 'GET', `/v1/streams/${id}`)).body.status === 'live', 30_000);
    await waitFor('5 s published', async () => publisher.sentSeconds() >= 5, 30_000);
    // The appliance and the publisher go; a minute ends at least 3 s later, while they are away.
    await killSvc(ctx);
    await publisher.kill();
    const leftAt = Date.now();
    const minuteEnd = Math.ceil((leftAt + 3000) / 60_000) * 60_000;
    await new Promise((r) => setTimeout(r, minuteEnd + 7_000 - Date.now()));
    await up(ctx);
    await waitFor(
      'the publisher found gone',
      async () => (await ctx.sql`select 1 from streams where id = ${id} and publisher_left_at is not null`).length > 0,
      30_000,
    );
    assert.is((await call(ctx, 'DELETE', `/v1/streams/${id}`)).status, 200);
    await waitFor(
      'charged to the end',
      async () =>
        (await ctx.sql`select 1 from streams where id = ${id} and ingest_metered_until >= ended_at`).length > 0,
      60_000,
      100,
    );
    const { sessions, total } = await ledgerMatchesSessions(ctx, id);
    const session = sessions[0] as { start: number; end: number };
    console.log(
      `  publisher killed ${((minuteEnd - leftAt) / 1000).toFixed(1)} s before the minute ended; its session ends ${((session.end - leftAt) / 1000).toFixed(2)} s after the kill; ${total} s charged`,
    );
    assert.ok(Math.abs(session.end - leftAt) <= 2000, 'the session ends when the publisher left');
  },
);

t.run();
