/**
 * Property test of the money: random histories of publishing, delivery, recordings and credit over
 * several UTC days, metered at random times (runs repeated at the same time, runs killed between
 * or inside their parts), checked against what the rates give, exactly (BigInt micro-dollars).
 * A failure names its seed: BILLING_SEED=<seed> BILLING_CASES=1 replays it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Sql } from '../../src/platform/db/connect.js';
import { chargeClosedPeriods } from '../../src/domains/ledger/billing/charging.js';
import { accountMoney } from '../../src/domains/ledger/billing/queries.js';
import type { Profile } from '../../src/domains/streams/model.js';
import { prng } from '../helpers/random.js';
import { micros } from '../helpers/usd.js';
import {
  chargedItems,
  createWorld,
  createZonedDatabase,
  DAY,
  deliver,
  end,
  HOUR,
  itemPrice,
  join,
  leave,
  ledger,
  MIN,
  newStream,
  recordingDeleted,
  recordingReady,
  usedQuantities,
  type World,
} from './world.js';

const CASES = Number(process.env.BILLING_CASES ?? 200);
const BASE_SEED = Number(process.env.BILLING_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Evening of a UTC day, so the first sessions already straddle midnight. */
const T0 = Date.UTC(2026, 10, 20, 21, 0, 0);
const SPAN = 3 * DAY;

type Event =
  | { at: number; kind: 'credit'; account: number; amount: string }
  | { at: number; kind: 'join' | 'leave' | 'end'; stream: number }
  | { at: number; kind: 'deliver'; stream: number; minute: number; bytes: bigint }
  | { at: number; kind: 'ready'; stream: number; bytes: number }
  | { at: number; kind: 'delete'; stream: number }
  | { at: number; kind: 'meter'; how: 'service' | 'charge' | 'concurrent'; repeat: boolean; cut: number | null };

interface Plan {
  accounts: { postpaid: boolean; credit: string }[];
  streams: { account: number; profile: Profile; record: boolean }[];
  events: Event[];
}

const floorTo = (t: number, step: number) => Math.floor(t / step) * step;
const ceilTo = (t: number, step: number) => Math.ceil(t / step) * step;

function usd(rnd: () => number, maxMicros: number): string {
  const m = BigInt(Math.floor(rnd() * maxMicros));
  return `${m / 1_000_000n}.${(m % 1_000_000n).toString().padStart(6, '0')}`;
}

function makePlan(seed: number): Plan {
  const rnd = prng(seed);
  const int = (n: number) => Math.floor(rnd() * n);
  const chance = (p: number) => rnd() < p;
  const plan: Plan = { accounts: [], streams: [], events: [] };
  const add = (e: Event) => plan.events.push(e);

  for (let a = 0, n = 1 + int(2); a < n; a++) {
    // Little credit often, so that prepaid streams run out and balances cross zero.
    plan.accounts.push({
      postpaid: chance(0.2),
      credit: chance(0.3) ? '0' : usd(rnd, chance(0.5) ? 2_000_000 : 30_000_000),
    });
    for (let c = int(3); c > 0; c--) {
      const amount = usd(rnd, 20_000_000);
      add({ at: T0 + int(SPAN), kind: 'credit', account: a, amount: chance(0.3) ? `-${amount}` : amount });
    }
    for (let s = 1 + int(2); s > 0; s--) {
      const stream = plan.streams.length;
      const record = chance(0.7);
      plan.streams.push({ account: a, profile: chance(0.5) ? 'abr_basic' : 'passthrough', record });
      // Often just before a UTC midnight, so that sessions and charges straddle days.
      const start = chance(0.4) ? T0 + 3 * HOUR + int(2) * DAY - int(30 * MIN) : T0 + int(SPAN * 0.8);
      // Most end; the others are live without a publisher until everything ends.
      const ended = chance(0.8);
      let t = start;
      let open = false;
      for (let k = 1 + int(3); k > 0; k--) {
        if (t > start) t += int(10 * MIN);
        add({ at: t, kind: 'join', stream });
        const roll = rnd();
        t += roll < 0.15 ? int(1500) : roll < 0.9 ? 1000 + int(30 * MIN) : 30 * MIN + int(90 * MIN);
        open = k === 1 && ended && chance(0.5);
        if (!open) add({ at: t, kind: 'leave', stream });
      }
      const endAt = t + (open ? 0 : int(70_000));
      if (ended) add({ at: endAt, kind: 'end', stream });
      for (let d = int(5); d > 0; d--) {
        const at = start + int(endAt - start + 3 * HOUR);
        const minute = Math.max(floorTo(start, MIN), floorTo(at - int(80 * MIN), MIN));
        const bytes = BigInt(chance(0.2) ? int(2000) : int(3_000_000_000));
        add({ at, kind: 'deliver', stream, minute, bytes });
        // The reader adds to a minute it counted before, possibly after metering charged it.
        if (chance(0.3))
          add({ at: at + int(2 * HOUR), kind: 'deliver', stream, minute, bytes: BigInt(int(500_000_000)) });
      }
      if (record && ended) {
        const ready = endAt + 30_000 + int(15 * MIN);
        add({ at: ready, kind: 'ready', stream, bytes: 1 + int(8_000_000_000) });
        if (chance(0.7)) add({ at: ready + 1000 + int(30 * HOUR), kind: 'delete', stream });
      }
    }
  }
  for (let r = 2 + int(5); r > 0; r--) {
    const cut = chance(0.15) ? int(3) : null;
    const how = cut !== null || chance(0.2) ? 'charge' : chance(0.15) ? 'concurrent' : 'service';
    add({ at: T0 + int(SPAN + 4 * HOUR), kind: 'meter', how, repeat: chance(0.25), cut });
  }
  // Stable: events at the same time keep the order they were planned in.
  plan.events.sort((x, y) => x.at - y.at);
  return plan;
}

class Killed extends Error {}

/** The pool as a metering run killed during its part `part` sees it: earlier parts commit, that one rolls back. */
function killedDuring(sql: Sql, part: number): Sql {
  let n = 0;
  return new Proxy(sql, {
    get(target, prop, receiver) {
      if (prop !== 'begin') return Reflect.get(target, prop, receiver) as unknown;
      return (fn: (tx: unknown) => Promise<unknown>) => {
        const i = n++;
        if (i < part) return target.begin(fn as never);
        if (i === part) {
          return target.begin(async (tx) => {
            await fn(tx);
            throw new Killed();
          });
        }
        throw new Killed();
      };
    },
  });
}

/** What the cases exercised, printed at the end (a property test that meters nothing proves nothing). */
const stats = {
  cases: 0,
  runs: 0,
  repeated: 0,
  killed: 0,
  endedForCredit: 0,
  redelivered: 0,
  chargeRows: {} as Record<string, number>,
};

async function meter(w: World, e: Extract<Event, { kind: 'meter' }>): Promise<void> {
  const { sql, config } = w;
  stats.runs++;
  if (e.cut !== null) {
    stats.killed++;
    await chargeClosedPeriods(killedDuring(sql, e.cut), config.billing.rates, w.clock.now()).then(
      () => assert.unreachable('the killed run went through'),
      (err: unknown) => assert.instance(err, Killed),
    );
    return;
  }
  const charge = () => chargeClosedPeriods(sql, config.billing.rates, w.clock.now());
  // Two nodes' runs at once (a lease that ran out): row locks keep them from charging a period twice.
  const once = () =>
    e.how === 'service' ? w.metering.run() : e.how === 'charge' ? charge() : Promise.all([charge(), charge()]);
  await once();
  if (!e.repeat) return;
  stats.repeated++;
  const before = await snapshot(w);
  await once();
  const after = await snapshot(w);
  // A service run may have ended streams for credit: the next charges their last minute, nothing else.
  const ended = await sql<
    { id: string }[]
  >`select id from streams where end_reason = 'insufficient_credit' and ended_at = ${w.clock.now()}`;
  const added = after.filter((l) => !before.includes(l) && !l.startsWith('acc_'));
  assert.equal(
    added.filter((l) => !ended.some((s) => l.startsWith(`${s.id} `))),
    [],
    'a run repeated at the same time charged more',
  );
  assert.equal(
    before.filter((l) => !after.includes(l) && !l.startsWith('acc_')),
    [],
    'a run repeated at the same time changed charges',
  );
  if (added.length === 0) return;
  await once();
  assert.equal(await snapshot(w), after, 'a third run at the same time changed the ledger');
}

/** The whole ledger and every account's charged_usd, one line each. */
async function snapshot(w: World): Promise<string[]> {
  const rows = await w.sql<{ line: string }[]>`
    select concat_ws(' ', stream_id, item, period_start, quantity, amount_usd) as line from charges
    union all select concat_ws(' ', id, charged_usd) from accounts order by 1`;
  return rows.map((r) => r.line);
}

/** Invariants that hold at any time: available ≤ balance = credit − charged = credit − Σ ledger. */
async function checkNow(w: World, accountIds: string[]): Promise<void> {
  const { sql, config } = w;
  const ledgers = await sql<{ id: string; a: string }[]>`
    select a.id, coalesce(sum(c.amount_usd), 0)::text as a from accounts a left join charges c on c.account_id = a.id
    where a.id = any(${accountIds}) group by a.id`;
  for (const money of await accountMoney(sql, accountIds, config.billing.rates, w.clock.now())) {
    assert.is(
      micros(money.charged_usd),
      micros(ledgers.find((l) => l.id === money.id)!.a),
      'accounts.charged_usd is the sum of the ledger',
    );
    assert.is(
      micros(money.balance_usd),
      micros(money.credit_usd) - micros(money.charged_usd),
      'balance = credit − charged',
    );
    assert.ok(
      micros(money.available_usd) <= micros(money.balance_usd),
      `available ${money.available_usd} ≤ balance ${money.balance_usd}`,
    );
  }
}

/** A stream's cost is what it used so far priced once, charged or not. */
async function checkCost(
  w: World,
  streamId: string,
): Promise<{ profile: Profile; used: Awaited<ReturnType<typeof usedQuantities>> }> {
  const rates = w.config.billing.rates;
  const [row] = await w.sql<{ profile: Profile }[]>`select profile from streams where id = ${streamId}`;
  const used = await usedQuantities(w.sql, streamId, w.clock.now());
  const cost = await w.billing.cost(streamId);
  const ingest = itemPrice(rates, row!.profile, used.ingest);
  const delivery = itemPrice(rates, 'delivery', used.delivery);
  const storage = itemPrice(rates, 'storage', used.storage);
  assert.is(cost.ingest_seconds, Number(used.ingest), 'ingest_seconds');
  assert.is(micros(cost.ingest_usd), ingest, 'ingest_usd = round(rate × seconds)');
  assert.is(cost.delivery_bytes, Number(used.delivery), 'delivery_bytes');
  assert.is(micros(cost.delivery_usd), delivery, 'delivery_usd = round(rate × bytes)');
  assert.is(micros(cost.storage_usd), storage, 'storage_usd = round(rate × byte-seconds)');
  assert.is(micros(cost.total_usd), ingest + delivery + storage, 'total_usd');
  return { profile: row!.profile, used };
}

async function runCase(w: World, seed: number): Promise<void> {
  const plan = makePlan(seed);
  const { sql, clock, accounts, billing } = w;
  clock.set(T0 - HOUR);
  const accountIds: string[] = [];
  const creditAdded: bigint[] = [];
  for (const a of plan.accounts) {
    accountIds.push((await accounts.create({ name: `seed ${seed}`, creditUsd: a.credit, postpaid: a.postpaid })).id);
    creditAdded.push(micros(a.credit));
  }
  const streamIds: string[] = [];
  for (const s of plan.streams)
    streamIds.push((await newStream(w, accountIds[s.account]!, { profile: s.profile, record: s.record })).id);

  const rnd = prng(seed ^ 0x5eed);
  for (const e of plan.events) {
    clock.set(e.at);
    const at = new Date(e.at);
    switch (e.kind) {
      case 'credit':
        await accounts.addCredit(accountIds[e.account]!, e.amount, { force: true });
        creditAdded[e.account]! += micros(e.amount);
        break;
      case 'join':
        await join(w, streamIds[e.stream]!, at);
        break;
      case 'leave':
        await leave(w, streamIds[e.stream]!, at);
        break;
      case 'end':
        await end(w, streamIds[e.stream]!, at);
        break;
      case 'deliver':
        await deliver(sql, streamIds[e.stream]!, new Date(e.minute), e.bytes);
        break;
      case 'ready':
        await recordingReady(w, streamIds[e.stream]!, at, e.bytes);
        break;
      case 'delete':
        await recordingDeleted(w, streamIds[e.stream]!, at);
        break;
      case 'meter':
        await meter(w, e);
        if (e.cut !== null) break;
        await checkNow(w, accountIds);
        if (rnd() < 0.3) await checkCost(w, streamIds[Math.floor(rnd() * streamIds.length)]!);
        break;
    }
  }

  // Everything ends; two runs on an hour boundary charge it all, the second nothing more.
  const last = (plan.events.at(-1)?.at ?? T0) + MIN;
  clock.set(last);
  for (const id of streamIds) await end(w, id, new Date(last));
  clock.set(ceilTo(last + 2 * MIN, HOUR));
  await meter(w, { at: clock.t, kind: 'meter', how: 'service', repeat: true, cut: null });
  stats.endedForCredit += (
    await sql`select 1 from streams where account_id = any(${accountIds}) and end_reason = 'insufficient_credit'`
  ).length;
  stats.redelivered += (
    await sql`select 1 from delivery_minutes where stream_id = any(${streamIds}) and charged_bytes > 0 and bytes > 0`
  ).length;

  for (const id of streamIds) {
    const { profile, used } = await checkCost(w, id);
    // (b): each item's charges add up to its whole quantity priced once.
    const charged = await chargedItems(sql, id);
    for (const [item, quantity] of [
      [profile, used.ingest],
      ['delivery', used.delivery],
      ['storage', used.storage],
    ] as const) {
      const c = charged(item);
      assert.is(c.quantity, quantity, `${item} quantity charged`);
      assert.is(
        c.micros,
        itemPrice(w.config.billing.rates, item, quantity),
        `${item}: Σ charges = round(rate × ${quantity})`,
      );
    }
  }

  for (const [i, id] of accountIds.entries()) {
    const account = await accounts.get(id);
    const rows = await ledger(sql, id);
    for (const r of rows) stats.chargeRows[r.item] = (stats.chargeRows[r.item] ?? 0) + 1;
    const usage = await billing.usage(account, 90);
    assert.is(micros(usage.credit_usd), creditAdded[i]!, 'credit_usd is every credit added');
    assert.is(
      micros(usage.charged_usd),
      rows.reduce((s, r) => s + micros(r.amount_usd), 0n),
      'charged_usd is the ledger',
    );
    assert.is(
      micros(usage.balance_usd),
      micros(usage.credit_usd) - micros(usage.charged_usd),
      'balance = credit − charged',
    );
    // (d): all charged: nothing is used and uncharged.
    assert.is(usage.available_usd, usage.balance_usd, 'available = balance once everything is charged');
    // (a): the days add up to the totals and chain to the balance.
    let balance = 0n;
    let total = 0n;
    let credit = 0n;
    for (const day of usage.days) {
      const dayTotal = micros(day.total_usd);
      assert.is(
        day.items.reduce((s, it) => s + micros(it.amount_usd), 0n),
        dayTotal,
        `${day.date}: items add up to the day`,
      );
      balance += micros(day.credit_usd) - dayTotal;
      assert.is(micros(day.balance_usd), balance, `${day.date}: closing balance chains`);
      total += dayTotal;
      credit += micros(day.credit_usd);
    }
    assert.is(total, micros(usage.charged_usd), 'Σ day totals = charged_usd');
    assert.is(credit, micros(usage.credit_usd), 'Σ day credits = credit_usd');
    assert.is(balance, micros(usage.balance_usd), 'the last closing balance is balance_usd');
    const seconds = rows
      .filter((r) => r.item === 'abr_basic' || r.item === 'passthrough')
      .reduce((s, r) => s + BigInt(r.quantity), 0n);
    const daySeconds = usage.days
      .flatMap((d) => d.items)
      .filter((it) => it.unit === 'second')
      .reduce((s, it) => s + BigInt(it.quantity), 0n);
    assert.is(daySeconds, seconds, 'Σ day ingest seconds = the ledger');
    // A shorter window opens with the balance before it and still closes on balance_usd.
    const short = await billing.usage(account, 1 + Math.floor(rnd() * 4));
    const first = short.days[0]!;
    const opening = micros(first.balance_usd) - micros(first.credit_usd) + micros(first.total_usd);
    const full = usage.days[usage.days.length - short.days.length - 1];
    assert.is(
      opening,
      full ? micros(full.balance_usd) : 0n,
      'a short window opens on the previous day’s closing balance',
    );
    assert.equal(short.days, usage.days.slice(-short.days.length), 'a short window is the end of the long one');
  }
  stats.cases++;
}

/** Cases run on a few databases at once: each run meters its whole database at its own clock. */
const WORKERS = 3;

test(`random histories metered at random times add up exactly (${CASES} cases)`, async () => {
  let next = 0;
  let failure: unknown = null;
  const worker = async () => {
    // Half an hour off UTC: a day or an hour taken in the server's zone would show.
    const db = await createZonedDatabase('Asia/Kolkata');
    try {
      const w = createWorld(db.sql, T0);
      while (failure === null && next < CASES) {
        const seed = (BASE_SEED + next++) >>> 0;
        try {
          await runCase(w, seed);
        } catch (err) {
          if (err instanceof Error)
            err.message = `seed ${seed} (BILLING_SEED=${seed} BILLING_CASES=1 replays it): ${err.message}`;
          failure ??= err;
        }
        // Each case on its own: cascades take its streams, ledger rows and events.
        await db.sql`delete from accounts`;
      }
    } finally {
      await db.drop();
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, worker));
  if (failure !== null) throw failure;
  console.log(`  ${JSON.stringify(stats)}`);
});

test.run();
