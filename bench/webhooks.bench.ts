/**
 * Webhook delivery: how many deliveries per second the dispatcher sends to a local receiver
 * (a backlog of events fanned out to 5 endpoints, default concurrency), and the delay from an
 * event's creation to its first attempt while the dispatcher is idle (goal: under 1 s at the median).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { packageRoot } from '../src/core/package-root.js';
import type { Sql } from '../src/platform/db/connect.js';
import { appendEvent } from '../src/domains/ledger/events/outbox.js';
import { WebhookDispatcher } from '../src/domains/back-office/webhooks/dispatcher.worker.js';
import { WebhooksService } from '../src/domains/back-office/webhooks/service.js';
import { systemLookup } from '../src/domains/back-office/webhooks/ssrf.js';
import { startBenchDatabase } from './database.js';

const BACKLOG_EVENTS = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 1000);
const ENDPOINTS = 5;
const IDLE_SAMPLES = 40;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function emit(sql: Sql, accountId: string) {
  return sql.begin((tx) =>
    appendEvent(tx, {
      type: 'stream.cancelled',
      accountId,
      streamId: 'str_00000000000000000000',
      at: new Date(),
      data: { object: 'stream', id: 'str_00000000000000000000', status: 'cancelled' },
    }),
  );
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? NaN;

export async function benchWebhooks(): Promise<string> {
  const db = await startBenchDatabase();
  const arrivals = new Map<string, number>();
  let received = 0;
  const receiver = spawn(process.execPath, ['--import', 'tsx', 'bench/receiver.ts'], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: receiver.stdout });
  const port: number = await new Promise((resolve, reject) => {
    receiver.once('exit', (code) => reject(new Error(`bench receiver exited (${code})`)));
    lines.once('line', (line) => resolve(Number(line)));
  });
  lines.on('line', (line) => {
    const [id, at] = line.split(' ');
    received++;
    if (id && !arrivals.has(id)) arrivals.set(id, Number(at));
  });
  const logger = createLogger('warn');
  const policy = { allowPrivate: true, lookup: systemLookup };
  const dispatcher = () => new WebhookDispatcher({ sql: db.sql, clock: systemClock, logger, policy });
  try {
    const accounts = new AccountsService(db.sql, systemClock);
    const account = await accounts.create({ name: 'Bench', creditUsd: '10' });
    const webhooks = new WebhooksService({ sql: db.sql, clock: systemClock, policy });
    for (let i = 0; i < ENDPOINTS; i++) await webhooks.create(account, { url: `http://127.0.0.1:${port}/hook/${i}` });

    // Throughput: the backlog is queued while no dispatcher runs, then drained by one.
    for (let i = 0; i < BACKLOG_EVENTS; i++) await emit(db.sql, account.id);
    const total = BACKLOG_EVENTS * ENDPOINTS;
    const drain = dispatcher();
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    await drain.start();
    while (received < total) await sleep(5);
    // Until every attempt is recorded too: a delivery is done when its row says so.
    const unfinished = async () =>
      (await db.sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where status <> 'succeeded'`)[0]
        ?.n ?? 0;
    while ((await unfinished()) > 0) await sleep(10);
    const seconds = (performance.now() - t0) / 1000;
    const drained = received;
    const cpu = process.cpuUsage(cpu0);
    const cpuShare = (cpu.user + cpu.system) / 1e6 / seconds;
    const [{ avg } = { avg: 0 }] = await db.sql<
      { avg: number }[]
    >`select avg(last_duration_ms)::float as avg from webhook_deliveries`;

    // Idle delay: one event at a time, the dispatcher waiting (poll 1 s; the commit's NOTIFY wakes it).
    const delays: number[] = [];
    for (let i = 0; i < IDLE_SAMPLES; i++) {
      await sleep(150 + Math.random() * 250);
      // Measured from before the creating transaction begins: an upper bound of the delay.
      const created = performance.timeOrigin + performance.now();
      const event = await emit(db.sql, account.id);
      while (!arrivals.has(event.id)) await sleep(1);
      delays.push((arrivals.get(event.id) as number) - created);
    }
    await drain.stop();
    delays.sort((a, b) => a - b);
    return [
      `Webhook delivery to a local receiver (${ENDPOINTS} endpoints, default concurrency: 4 per endpoint, 32 in all)`,
      `backlog: ${total} deliveries (${BACKLOG_EVENTS} events) in ${seconds.toFixed(2)} s = ${Math.round(total / seconds)} deliveries/s (each sent, answered and recorded: ${drained} requests)`,
      `         mean attempt ${avg.toFixed(1)} ms; dispatcher process CPU ${cpuShare.toFixed(2)} of one core (receiver in its own process)`,
      `idle: event creation → first attempt over ${IDLE_SAMPLES} events: median ${percentile(delays, 0.5).toFixed(1)} ms, p90 ${percentile(delays, 0.9).toFixed(1)} ms, max ${(delays.at(-1) ?? NaN).toFixed(1)} ms (goal: median < 1000 ms)`,
    ].join('\n');
  } finally {
    receiver.kill('SIGTERM');
    await new Promise((resolve) => receiver.once('exit', resolve));
    await db.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(await benchWebhooks());
