/**
 * The charges ledger, run by run: ingest per minute while live and to the end in one run once
 * ended, storage per hour until the recording is deleted, delivery charged again by the difference
 * when the CDN log reader adds bytes to a minute already charged.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chargeClosedPeriods } from '../../src/domains/ledger/billing/charging.js';
import { storageToMeter } from '../../src/domains/ledger/billing/queries.js';
import { lockAccount } from '../../src/domains/ledger/accounts/model.js';
import { lockStreamById } from '../../src/domains/streams/model.js';
import type { Item } from '../../src/domains/ledger/billing/items.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { micros } from '../helpers/usd.js';
import {
  chargedItems,
  createWorld,
  deliver,
  end,
  itemPrice,
  join,
  leave,
  newStream,
  recordingDeleted,
  recordingReady,
  type World,
} from './world.js';

const t = suite<{ db: TestDatabase; w: World }>('billing: the charges ledger');

t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  ctx.w = createWorld(ctx.db.sql, Date.parse('2026-11-21T10:00:00Z'));
});
t.after.each(async ({ db }) => {
  await db.sql`delete from accounts`;
});
t.after(async ({ db }) => {
  await db.drop();
});

const at = (iso: string) => new Date(iso);

/** Runs the charging part of metering at `iso`. */
async function chargeAt(w: World, iso: string) {
  w.clock.set(at(iso));
  return chargeClosedPeriods(w.sql, w.config.billing.rates, w.clock.now());
}

async function rows(w: World, streamId: string, item: Item): Promise<[string, number, string][]> {
  const list = await w.sql<{ period_start: Date; quantity: string; amount_usd: string }[]>`
    select period_start, quantity::text, amount_usd::text from charges where stream_id = ${streamId} and item = ${item} order by period_start`;
  return list.map((r) => [r.period_start.toISOString().slice(11, 16), Number(r.quantity), r.amount_usd]);
}

async function marks(w: World, streamId: string) {
  const [row] = await w.sql<{ ingest: Date | null; storage: Date | null }[]>`
    select ingest_metered_until as ingest, storage_metered_until as storage from streams where id = ${streamId}`;
  return { ingest: row?.ingest?.toISOString() ?? null, storage: row?.storage?.toISOString() ?? null };
}

/** Each row is the running total priced minus what was charged before: the rows add up to the total priced once. */
async function assertPricedOnce(w: World, streamId: string, item: Item): Promise<void> {
  const list = await rows(w, streamId, item);
  let quantity = 0n;
  for (const [period, q, amount] of list) {
    const before = itemPrice(w.config.billing.rates, item, quantity);
    quantity += BigInt(q);
    assert.is(micros(amount), itemPrice(w.config.billing.rates, item, quantity) - before, `${item} ${period}`);
  }
  const account = await w.sql<
    { charged_usd: string }[]
  >`select charged_usd::text from accounts a join streams s on s.account_id = a.id where s.id = ${streamId}`;
  assert.ok(micros(account[0]!.charged_usd) >= itemPrice(w.config.billing.rates, item, quantity));
}

t('a live stream is charged minute by minute as minutes close; once ended, to its end in one run', async ({ w }) => {
  const account = await w.accounts.create({ name: 'Live', creditUsd: '10' });
  const stream = await newStream(w, account.id, { profile: 'abr_basic' });
  await join(w, stream.id, at('2026-11-21T10:00:20Z'));

  // The first minute closes at 10:01:00 and is taken as final 5 s later.
  assert.equal(await chargeAt(w, '2026-11-21T10:01:04Z'), { ingestPeriods: 0, deliveryRows: 0, storagePeriods: 0 });
  assert.is((await marks(w, stream.id)).ingest, null);
  assert.is((await chargeAt(w, '2026-11-21T10:01:06Z')).ingestPeriods, 1);
  assert.equal(await rows(w, stream.id, 'abr_basic'), [['10:00', 40, '0.002000']]);
  assert.is((await marks(w, stream.id)).ingest, '2026-11-21T10:01:00.000Z');

  await chargeAt(w, '2026-11-21T10:02:30Z');
  assert.equal(
    await chargeAt(w, '2026-11-21T10:02:30Z'),
    { ingestPeriods: 0, deliveryRows: 0, storagePeriods: 0 },
    'a repeated run charges nothing',
  );
  // A publisher that drops and comes back: the gap is not charged.
  await leave(w, stream.id, at('2026-11-21T10:02:45.500Z'));
  await join(w, stream.id, at('2026-11-21T10:03:10Z'));
  // Runs missed for minutes: the next one charges every closed minute.
  assert.is((await chargeAt(w, '2026-11-21T10:05:10Z')).ingestPeriods, 3);
  assert.is((await marks(w, stream.id)).ingest, '2026-11-21T10:05:00.000Z');

  // Ended mid-minute: the next run charges up to the end without waiting for the minute to close.
  await end(w, stream.id, at('2026-11-21T10:05:33.250Z'));
  assert.is((await chargeAt(w, '2026-11-21T10:05:34Z')).ingestPeriods, 1);
  assert.equal(await rows(w, stream.id, 'abr_basic'), [
    ['10:00', 40, '0.002000'],
    ['10:01', 60, '0.003000'],
    ['10:02', 45, '0.002250'],
    ['10:03', 50, '0.002500'],
    ['10:04', 60, '0.003000'],
    ['10:05', 33, '0.001650'],
  ]);
  assert.is((await marks(w, stream.id)).ingest, '2026-11-21T10:06:00.000Z');
  assert.equal(await chargeAt(w, '2026-11-21T11:00:00Z'), { ingestPeriods: 0, deliveryRows: 0, storagePeriods: 0 });

  const cost = await w.billing.cost(stream.id);
  assert.is(cost.ingest_seconds, 288);
  assert.is(cost.ingest_usd, '0.0144');
  assert.is((await w.billing.usage(await w.accounts.get(account.id), 1)).charged_usd, '0.0144');
});

t(
  'seconds worth less than a micro-dollar: each row carries the rounding of the running total, so the sum is the total priced once',
  async ({ w }) => {
    const account = await w.accounts.create({ name: 'Pass', creditUsd: '10' });
    const stream = await newStream(w, account.id, { profile: 'passthrough' });
    // 0.0005 USD a minute: 1 s is 0.00000833… USD. Ten 1-second visits, each charged in its own run.
    const minute = (m: number) => `2026-11-21T10:${String(m).padStart(2, '0')}`;
    for (let m = 0; m < 10; m++) {
      await join(w, stream.id, at(`${minute(m)}:30Z`));
      await leave(w, stream.id, at(`${minute(m)}:31Z`));
      await chargeAt(w, `${minute(m + 1)}:06Z`);
    }
    const list = await rows(w, stream.id, 'passthrough');
    assert.is(list.length, 10);
    // Rounded one by one they would be 10 × 0.000008; the total is 10 s = 0.0000833… = 0.000083.
    assert.equal(
      list.map(([, , amount]) => amount),
      [
        '0.000008',
        '0.000009',
        '0.000008',
        '0.000008',
        '0.000009',
        '0.000008',
        '0.000008',
        '0.000009',
        '0.000008',
        '0.000008',
      ],
    );
    await assertPricedOnce(w, stream.id, 'passthrough');
    const charged = (await chargedItems(w.sql, stream.id))('passthrough');
    assert.equal(charged, { quantity: 10n, micros: 83n });
  },
);

t(
  'storage is charged per hour from ready until deleted, the last hour in one run after the deletion',
  async ({ w }) => {
    const account = await w.accounts.create({ name: 'Disk', creditUsd: '10' });
    const stream = await newStream(w, account.id);
    await join(w, stream.id, at('2026-11-21T11:00:00Z'));
    await end(w, stream.id, at('2026-11-21T12:00:00Z'));
    await recordingReady(w, stream.id, at('2026-11-21T12:10:00Z'), 2_000_000_000);

    assert.is((await chargeAt(w, '2026-11-21T12:59:59Z')).storagePeriods, 0);
    assert.is((await chargeAt(w, '2026-11-21T13:00:00Z')).storagePeriods, 1);
    assert.is((await marks(w, stream.id)).storage, '2026-11-21T13:00:00.000Z');
    assert.is((await chargeAt(w, '2026-11-21T15:30:00Z')).storagePeriods, 2);
    await recordingDeleted(w, stream.id, at('2026-11-21T15:45:30Z'));
    assert.is((await chargeAt(w, '2026-11-21T15:46:00Z')).storagePeriods, 1);
    assert.is((await marks(w, stream.id)).storage, '2026-11-21T16:00:00.000Z');
    assert.equal(await chargeAt(w, '2026-11-22T10:00:00Z'), { ingestPeriods: 0, deliveryRows: 0, storagePeriods: 0 });

    const list = await rows(w, stream.id, 'storage');
    assert.equal(
      list.map(([p, q]) => [p, q]),
      [
        ['12:00', 2e9 * 3000],
        ['13:00', 2e9 * 3600],
        ['14:00', 2e9 * 3600],
        ['15:00', 2e9 * 2730],
      ],
    );
    await assertPricedOnce(w, stream.id, 'storage');
    const cost = await w.billing.cost(stream.id);
    // 2 GB for 3 h 35 min 30 s at 0.03 per GB-month (730 h).
    assert.is(cost.storage_gb_hours, 7.183333);
    assert.is(micros(cost.storage_usd), itemPrice(w.config.billing.rates, 'storage', 2_000_000_000n * 12_930n));
    assert.is(cost.storage_usd, '0.000295');
  },
);

t(
  'delivery: bytes the reader adds to a minute already charged are charged once more, only the difference',
  async ({ w }) => {
    const account = await w.accounts.create({ name: 'CDN', creditUsd: '10' });
    const stream = await newStream(w, account.id);
    await join(w, stream.id, at('2026-11-21T10:00:00Z'));
    const minute = at('2026-11-21T10:00:00Z');

    await deliver(w.sql, stream.id, minute, 1_000_000_000n);
    assert.is((await chargeAt(w, '2026-11-21T10:01:10Z')).deliveryRows, 1);
    assert.equal(await rows(w, stream.id, 'delivery'), [['10:00', 1e9, '0.030000']]);
    await deliver(w.sql, stream.id, minute, 500_000_000n);
    assert.is((await chargeAt(w, '2026-11-21T10:02:10Z')).deliveryRows, 1);
    assert.equal(await rows(w, stream.id, 'delivery'), [['10:00', 1.5e9, '0.045000']]);
    assert.is((await chargeAt(w, '2026-11-21T10:02:10Z')).deliveryRows, 0, 'nothing left to charge');
    const [d] = await w.sql<
      { charged_bytes: number }[]
    >`select charged_bytes from delivery_minutes where stream_id = ${stream.id}`;
    assert.is(d?.charged_bytes, 1_500_000_000);

    // Dribbles worth less than a micro-dollar each still add up to the rate of their sum.
    const later = at('2026-11-21T10:05:00Z');
    for (let i = 0; i < 17; i++) {
      await deliver(w.sql, stream.id, later, 10_000n);
      await chargeAt(w, `2026-11-21T10:${String(6 + i).padStart(2, '0')}:00Z`);
    }
    await assertPricedOnce(w, stream.id, 'delivery');
    const cost = await w.billing.cost(stream.id);
    assert.is(cost.delivery_bytes, 1_500_170_000);
    assert.is(cost.delivery_usd, '0.045005');
  },
);

t('cost while live: charged minutes plus the seconds not charged yet, priced once', async ({ w }) => {
  const account = await w.accounts.create({ name: 'Now', creditUsd: '10' });
  const stream = await newStream(w, account.id, { profile: 'abr_basic' });
  await join(w, stream.id, at('2026-11-21T10:00:00Z'));
  await chargeAt(w, '2026-11-21T10:02:10Z');
  w.clock.set(at('2026-11-21T10:02:31.900Z'));
  const cost = await w.billing.cost(stream.id);
  assert.is(cost.ingest_seconds, 151);
  assert.is(cost.ingest_usd, '0.00755');
  const [money] = await w.sql<
    { charged: string }[]
  >`select charged_usd::text as charged from accounts where id = ${account.id}`;
  assert.is(money?.charged, '0.006000');
  const usage = await w.billing.usage(await w.accounts.get(account.id), 1);
  assert.is(usage.balance_usd, '9.994');
  assert.is(usage.available_usd, '9.99245');
});

t(
  'a part holding a stream does not block another run charging its delivery (overlapping runs do not deadlock)',
  async ({ w }) => {
    const account = await w.accounts.create({ name: 'Overlap', creditUsd: '10' });
    const stream = await newStream(w, account.id);
    await join(w, stream.id, at('2026-11-21T10:00:00Z'));
    await end(w, stream.id, at('2026-11-21T10:00:30Z'));
    await recordingReady(w, stream.id, at('2026-11-21T10:05:00Z'), 1_000_000);
    await chargeAt(w, '2026-11-21T10:06:00Z');
    await deliver(w.sql, stream.id, at('2026-11-21T10:04:00Z'), 2_000_000_000n);
    w.clock.set(at('2026-11-21T12:00:00Z'));
    const other = await w.sql.begin(async (tx) => {
      // Another run's storage part: it holds the stream until it commits.
      assert.equal(
        (await storageToMeter(tx)).map((r) => r.id),
        [stream.id],
      );
      const blocked = new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 5_000).unref());
      return Promise.race([chargeClosedPeriods(w.sql, w.config.billing.rates, w.clock.now()), blocked]);
    });
    assert.equal(
      other,
      { ingestPeriods: 0, deliveryRows: 1, storagePeriods: 0 },
      'the delivery was charged while the stream was held',
    );
  },
);

t(
  "a publisher admitted while its stream's delivery is charged: stream then account lock, no deadlock",
  async ({ w }) => {
    const account = await w.accounts.create({ name: 'Admit', creditUsd: '10' });
    const stream = await newStream(w, account.id);
    await join(w, stream.id, at('2026-11-21T10:00:00Z'));
    await chargeAt(w, '2026-11-21T10:01:06Z');
    await deliver(w.sql, stream.id, at('2026-11-21T10:01:00Z'), 1_000_000_000n);
    w.clock.set(at('2026-11-21T10:01:30Z'));
    let charging: Promise<unknown> | undefined;
    await w.sql.begin(async (tx) => {
      // Admission (live/admission.ts) locks the stream, then its account.
      await lockStreamById(tx, stream.id);
      charging = chargeClosedPeriods(w.sql, w.config.billing.rates, w.clock.now());
      charging.catch(() => {});
      for (let i = 0; i < 500; i++) {
        const [waiting] = await w.sql<
          { n: number }[]
        >`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
        if (waiting!.n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await lockAccount(tx, account.id);
    });
    assert.equal(await charging, { ingestPeriods: 0, deliveryRows: 1, storagePeriods: 0 });
    assert.equal(await rows(w, stream.id, 'delivery'), [['10:01', 1e9, '0.030000']]);
  },
);

t.run();
