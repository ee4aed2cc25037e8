import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FeedReader } from '../helpers/chat.js';
import { startAppliance, type RunningAppliance } from '../../src/composition/appliance.js';
import { postgresStatus } from '../../src/operator/status.js';
import { jobStatus } from '../../src/platform/jobs/status.js';
import { resolveConfig, type Config } from '../../src/config/config.js';
import type { Secrets } from '../../src/config/secrets.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { managedCluster } from '../../src/platform/db/managed-cluster.js';
import { isDatabaseUnavailable } from '../../src/platform/db/errors.js';
import { listJobRuns, type JobRunRow } from '../../src/platform/jobs/queries.js';
import { Scheduler } from '../../src/platform/jobs/scheduler.js';
import { childrenOf } from '../../src/platform/process/proc.js';
import { openForTraversal } from '../../src/platform/system/users.js';
import { freePort } from '../helpers/ports.js';
import { sleep } from '../helpers/streams.js';

/**
 * The database goes away under a running appliance with its own managed cluster (never the
 * test run's shared one): killed (kill -9 of the postmaster) and frozen (SIGSTOP of every
 * process of the cluster). The API answers 503 with Retry-After quickly while it is away and
 * recovers by itself; a job whose run outlived the outage runs again.
 */
interface Ctx {
  dir: string;
  config: Config;
  secrets: Secrets;
  running: RunningAppliance;
  key: string;
  jobsSql: Sql;
  scheduler: Scheduler;
  /** When the last outage ended. */
  resumedAt: Date;
}
const t = suite<Ctx>('db: outages of the managed PostgreSQL');

t.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-test-outage-'));
  openForTraversal(ctx.dir);
  const [api, rtmp, cdn, player, postgres] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  // The appliance's own frequent jobs run every second or two, so that their recovery shows within the test.
  ctx.config = resolveConfig(ctx.dir, {
    api_port: api,
    rtmp_port: rtmp,
    cdn_port: cdn,
    player_port: player,
    postgres_port: postgres,
    capacity: { cores: 1000 },
    // Through nginx and workers: they too must answer 503 with Retry-After and come back.
    api_workers: 2,
    expiry_check_seconds: 1,
    recordings: { check_seconds: 1 },
    billing: { meter_seconds: 1 },
    cdn: { log_read_seconds: 2 },
    viewers: { attendance_flush_seconds: 1 },
  });
  ctx.secrets = { postgres_password: 'outage-test', signing_key: 'test-signing-key', data_key: 'test-data-key' };
  const logger = createLogger(
    process.env.SVC_TEST_LOG_LEVEL ?? 'info',
    destination({ dest: join(ctx.dir, 'logs', 'svc.log'), mkdir: true, sync: true }),
  );
  ctx.running = await startAppliance({ config: ctx.config, secrets: ctx.secrets, logger, clock: systemClock });
  const url = managedCluster(ctx.config, ctx.secrets).url;
  const setup = connect(url, { max: 1 });
  const accounts = new AccountsService(setup, systemClock);
  const account = await accounts.create({ name: 'Outage', creditUsd: '50' });
  ctx.key = (await accounts.createApiKey(account.id)).key;
  await setup.end();
  // A job with a short timeout, on a pool the appliance's monitor watches, as the appliance's jobs are.
  ctx.jobsSql = connect(url, { max: 2, available: () => ctx.running.database.available });
  ctx.running.database.watch(ctx.jobsSql);
  ctx.scheduler = new Scheduler(ctx.jobsSql, systemClock, logger.child({ domain: 'jobs' }));
  await ctx.scheduler.add({
    name: 'outage-probe',
    schedule: '* * * * * *',
    periodSeconds: 1,
    timeoutSeconds: 2,
    run: () => ctx.jobsSql`select 1`,
  });
});

t.after(async (ctx) => {
  await ctx.scheduler?.stop();
  await ctx.jobsSql?.end({ timeout: 1 });
  await ctx.running?.stop();
  if (!process.env.SVC_TEST_KEEP) rmSync(ctx.dir, { recursive: true, force: true });
});

interface Answer {
  path: string;
  status: number;
  /** When it was sent (performance.now()). */
  sentAt: number;
  ms: number;
  retryAfter: string | null;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- responses are read field by field
  body: any;
}

/** A GET with the account's key, or a POST of `body` (the nodes' and edges' joins, which take none). */
async function call(ctx: Ctx, path: string, body?: object): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${ctx.config.publicUrls.base_url}${path}`, {
    ...(body
      ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
      : { headers: { authorization: `Bearer ${ctx.key}` } }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  return {
    path,
    status: res.status,
    sentAt: started,
    ms: performance.now() - started,
    retryAfter: res.headers.get('retry-after'),
    body: JSON.parse(text),
  };
}

/**
 * Calls a read and /healthz over and over, from the fault on, until both answer 200 after at
 * least one 503 (recovered) or `maxMs` passed. Every answer is kept.
 */
async function untilRecovered(
  ctx: Ctx,
  faultAt: number,
  maxMs: number,
): Promise<{ answers: Answer[]; recoveredAfterMs: number | null }> {
  const answers: Answer[] = [];
  let sawDown = false;
  while (performance.now() - faultAt < maxMs) {
    const pair = [await call(ctx, '/v1/streams'), await call(ctx, '/healthz')];
    answers.push(...pair);
    if (pair.some((a) => a.status === 503)) sawDown = true;
    else if (sawDown) return { answers, recoveredAfterMs: performance.now() - faultAt };
    await sleep(50);
  }
  return { answers, recoveredAfterMs: null };
}

/** `since`: the fault's or the recovery's moment, which a slow answer's message counts from. */
function assertHonest(answers: Answer[], slowestMs: number, since: number): void {
  for (const [i, a] of answers.entries()) {
    assert.ok(a.status === 200 || a.status === 503, `${a.path} answered ${a.status}: ${JSON.stringify(a.body)}`);
    const when = `answer ${i + 1} of ${answers.length}, sent ${Math.round(a.sentAt - since)} ms after the fault or recovery, status ${a.status}`;
    assert.ok(
      a.ms < slowestMs,
      `${a.path} took ${Math.round(a.ms)} ms (${when}; all: ${answers.map((b) => `${b.status}/${Math.round(b.ms)}`).join(' ')})`,
    );
    if (a.status !== 503) continue;
    if (a.path === '/healthz') {
      assert.equal(a.body, { status: 'unavailable', parts: { database: 'down', ingest: 'ok' } });
    } else {
      assert.is(a.body.error.code, 'service_unavailable');
      assert.is(a.retryAfter, String(a.body.error.details.retry_after_seconds));
      assert.match(a.body.error.request_id, /^req_/);
    }
  }
}

/** The postmaster and every process it started. */
function clusterPids(ctx: Ctx): number[] {
  const postmaster = Number(
    readFileSync(join(ctx.config.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
  );
  return [postmaster, ...childrenOf(postmaster)];
}

/**
 * The probe job's row. After a connection was killed mid-statement, postgres.js 3.4.9 fails the
 * first statement on its new connection with the old backend's 57P01 (porsager/postgres#1223):
 * the appliance answers that one 503; the test reads again.
 */
async function probeRow(ctx: Ctx): Promise<JobRunRow | undefined> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await listJobRuns(ctx.jobsSql)).find((r) => r.name === 'outage-probe');
    } catch (err) {
      if (!isDatabaseUnavailable(err) || attempt === 5) throw err;
      await sleep(200);
    }
  }
}

async function lastSuccess(ctx: Ctx): Promise<number> {
  return (await probeRow(ctx))?.last_success_at?.getTime() ?? 0;
}

/**
 * A stream for a test that follows an outage. Its first statement on a new connection may still
 * fail with the old backend's 57P01 (porsager/postgres#1223, see `probeRow`): the API answers that
 * one 503 with Retry-After, as a client would see it, and the test asks again.
 */
async function createStream(ctx: Ctx): Promise<{ id: string }> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${ctx.config.publicUrls.base_url}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ctx.key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    if (res.status === 503 && attempt < 5) {
      assert.ok(res.headers.get('retry-after'), 'a 503 says when to come back');
      await sleep(500);
      continue;
    }
    const text = await res.text();
    assert.is(res.status, 201, text);
    return JSON.parse(text) as { id: string };
  }
}

t('healthy: /healthz names every part ok', async (ctx) => {
  const health = await call(ctx, '/healthz');
  assert.is(health.status, 200);
  assert.equal(health.body, { status: 'ok', parts: { database: 'ok', ingest: 'ok' } });
  assert.is((await call(ctx, '/v1/streams')).status, 200);
});

t(
  'kill -9 of the postmaster: 503 + Retry-After at once, restarted by the watchdog, recovered within 10 s',
  async (ctx) => {
    const [postmaster] = clusterPids(ctx);
    const killedAt = performance.now();
    process.kill(postmaster as number, 'SIGKILL');
    const { answers, recoveredAfterMs } = await untilRecovered(ctx, killedAt, 15_000);
    assertHonest(answers, 1000, killedAt);
    assert.ok(
      answers.some((a) => a.status === 503),
      'the outage was seen',
    );
    assert.ok(recoveredAfterMs !== null && recoveredAfterMs < 10_000, `recovered after ${recoveredAfterMs} ms`);
    // The watchdog counts its start once `pg_ctl start` and its own check are done, which may be
    // after the API has reconnected (CI saw the count still 0 when recovery was seen).
    const restarted = performance.now();
    while ((ctx.running.watchdog?.restarts ?? 0) < 1 && performance.now() - restarted < 10_000) await sleep(100);
    assert.ok((ctx.running.watchdog?.restarts ?? 0) >= 1, 'the watchdog started it again');
    console.log(
      `  kill -9: ${answers.filter((a) => a.status === 503).length} answers 503, slowest ${Math.round(Math.max(...answers.map((a) => a.ms)))} ms, recovered after ${Math.round(recoveredAfterMs ?? 0)} ms`,
    );
  },
);

t(
  'SIGSTOP of the cluster for 5 s: 503 + Retry-After within about a second, status says postgres is down, jobs run again after SIGCONT',
  async (ctx) => {
    const ranAt = performance.now();
    while ((await lastSuccess(ctx)) === 0 && performance.now() - ranAt < 5000) await sleep(200);
    const before = await lastSuccess(ctx);
    assert.ok(before > 0, 'the job ran before the freeze');
    const pids = clusterPids(ctx);
    const frozenAt = performance.now();
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    let answers: Answer[] = [];
    const joins: Answer[] = [];
    let statusDuring: Awaited<ReturnType<typeof postgresStatus>> | null = null;
    try {
      const watching = (async () => {
        while (performance.now() - frozenAt < 5000) {
          answers.push(await call(ctx, '/v1/streams'), await call(ctx, '/healthz'));
          await sleep(50);
        }
      })();
      await sleep(2500);
      statusDuring = await postgresStatus(ctx.config, ctx.secrets);
      // A machine joining meanwhile (an ingest node, an edge) is told to come back, not left hanging.
      joins.push(
        await call(ctx, '/node/v1/join', { token: 'njt_whatever' }),
        await call(ctx, '/edge/v1/join', { token: 'ejt_whatever' }),
      );
      await watching;
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    const resumedAt = performance.now();
    ctx.resumedAt = new Date();
    // The first request may wait for the monitor's verdict (a probe unanswered for a second); after it, every answer is at once.
    assertHonest(answers.slice(0, 2), 2000, frozenAt);
    assertHonest(answers.slice(2), 1100, frozenAt);
    assert.ok(answers.filter((a) => a.status === 503).length >= 4, 'the outage was seen');
    for (const join of joins) assert.is(join.status, 503, `${join.path}: ${JSON.stringify(join.body)}`);
    assertHonest(joins, 1100, frozenAt);
    assert.equal(statusDuring, { healthy: false, jobs: [], edges: [], nodes: [] });

    const after = await untilRecovered(ctx, resumedAt, 10_000);
    answers = after.answers;
    assertHonest(answers, 1000, resumedAt);
    // The job's runs during the freeze were abandoned after their 2 s; it runs again once the database answers.
    const deadline = performance.now() + 10_000;
    while ((await lastSuccess(ctx)) <= before && performance.now() < deadline) await sleep(200);
    const ranAgainAt = await lastSuccess(ctx);
    assert.ok(ranAgainAt > before, 'the job ran again');
    // When the run succeeded (its row), not when this test, slowed by a loaded machine, looked.
    const ranAgainAfterMs = ranAgainAt - ctx.resumedAt.getTime();
    assert.ok(ranAgainAfterMs < 10_000, `the job ran again ${Math.round(ranAgainAfterMs)} ms after SIGCONT`);
    const row = await probeRow(ctx);
    assert.is(jobStatus(row!, systemClock.now()).late, false);
    console.log(
      `  SIGSTOP 5 s: ${answers.length} answers after SIGCONT, recovered after ${Math.round(after.recoveredAfterMs ?? 0)} ms, job ran again after ${Math.round(ranAgainAfterMs)} ms`,
    );
  },
);

t(
  'the appliance’s own jobs (metering, the CDN log reader, reservation expiry, recordings) succeed again after the outages',
  async (ctx) => {
    const names = ['metering', 'cdn-log', 'reservation-expiry', 'recordings'];
    const recovered = async () => {
      const rows = await listJobRuns(ctx.jobsSql).catch(() => []);
      return names.filter(
        (name) => (rows.find((r) => r.name === name)?.last_success_at?.getTime() ?? 0) > ctx.resumedAt.getTime(),
      );
    };
    const deadline = performance.now() + 20_000;
    while ((await recovered()).length < names.length && performance.now() < deadline) await sleep(250);
    assert.equal((await recovered()).sort(), [...names].sort());
  },
);

t('attendance gathered while the database is frozen is written once it answers again', async (ctx) => {
  const stream = await createStream(ctx);
  const pids = clusterPids(ctx);
  for (const pid of pids) process.kill(pid, 'SIGSTOP');
  try {
    // Two playing reports 30 s apart (30 s credited), recorded in memory; the flushes every second fail meanwhile.
    const viewer = { streamId: stream.id, viewerId: 'outage-viewer', name: null };
    const t0 = systemClock.now().getTime();
    ctx.running.api.attendance.recorder.beat(viewer, 'vsn_outage', 'p', t0);
    ctx.running.api.attendance.recorder.beat(viewer, 'vsn_outage', 'p', t0 + 30_000);
    await sleep(3000);
  } finally {
    for (const pid of pids) process.kill(pid, 'SIGCONT');
  }
  const written = async () => {
    const rows = await ctx.jobsSql<
      { watch_seconds: number }[]
    >`select watch_seconds from attendance where stream_id = ${stream.id}`.catch(() => []);
    return rows[0]?.watch_seconds ?? null;
  };
  const deadline = performance.now() + 15_000;
  while ((await written()) === null && performance.now() < deadline) await sleep(250);
  assert.is(await written(), 30);
});

t(
  'chat: a reader stays connected through a kill -9 of PostgreSQL; posts answer 503 meanwhile, and are delivered once it is back',
  async (ctx) => {
    const stream = await createStream(ctx);
    const post = (text: string) =>
      fetch(`${ctx.config.publicUrls.base_url}/v1/embed/${stream.id}/chat/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text, nickname: 'Ann', client_id: 'outage-client' }),
        signal: AbortSignal.timeout(10_000),
      });
    const reader = await FeedReader.open(`${ctx.config.publicUrls.base_url}/v1/embed/${stream.id}/chat/feed`);
    try {
      assert.is((await post('before')).status, 201);
      await reader.until((r) => r.shown().includes('before'), 'the post before the outage');
      const postmaster = clusterPids(ctx)[0] as number;
      const killedAt = performance.now();
      process.kill(postmaster, 'SIGKILL');
      const during = await post('during');
      assert.is(during.status, 503, await during.clone().text());
      assert.ok(during.headers.get('retry-after'), 'Retry-After');
      assert.ok(performance.now() - killedAt < 5000, 'answered at once');
      const { recoveredAfterMs } = await untilRecovered(ctx, killedAt, 15_000);
      assert.ok(recoveredAfterMs !== null, 'recovered');
      assert.is((await post('after')).status, 201);
      await reader.until((r) => r.shown().includes('after'), 'the post after the outage', 10_000);
      assert.not.ok(reader.closed, 'the reader stayed connected');
      assert.equal(reader.shown(), ['before', 'after']);
    } finally {
      reader.close();
    }
  },
);

t('a job is late once its last success is older than twice its period', () => {
  const now = systemClock.now();
  const at = (secondsAgo: number) => new Date(now.getTime() - secondsAgo * 1000);
  const row = {
    name: 'j',
    period_seconds: 5,
    registered_at: at(3600),
    running_until: null,
    last_run_at: at(1),
    last_finished_at: at(1),
    last_success_at: at(11),
    last_error: 'CONNECT_TIMEOUT',
    last_duration_ms: 3,
  };
  assert.is(jobStatus(row, now).late, true);
  assert.is(jobStatus(row, now).lag_seconds, 11);
  assert.is(jobStatus({ ...row, last_success_at: at(9) }, now).late, false);
  // Lateness counts from the appliance's start when the last success is older.
  assert.is(jobStatus({ ...row, last_success_at: at(600), registered_at: at(4) }, now).late, false);
});

t.run();
