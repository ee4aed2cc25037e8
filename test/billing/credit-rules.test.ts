/**
 * The credit rules the metering job applies after charging: prepaid live streams end when nothing
 * is available, warnings go out once per crossing and again after a top-up, a prepaid balance at or
 * below zero puts ready recordings on the zero-balance deadline until credit comes back; postpaid
 * accounts are warned about their balance and never ended.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../src/core/errors.js';
import type { TestDatabase } from '../helpers/db.js';
import {
  createWorld,
  createZonedDatabase,
  DAY,
  deliver,
  end,
  join,
  newStream,
  recordingReady,
  type World,
} from './world.js';

const t = suite<{ db: TestDatabase; w: World }>('billing: credit rules');

t.before(async (ctx) => {
  // A server whose time zone has daylight saving: dates must not move with it.
  ctx.db = await createZonedDatabase('Europe/Berlin');
  ctx.w = createWorld(ctx.db.sql, Date.parse('2026-11-21T10:00:00Z'));
});
t.after.each(async ({ db, w }) => {
  await db.sql`delete from accounts`;
  w.endedLinks.length = 0;
});
t.after(async ({ db }) => {
  await db.drop();
});

const at = (iso: string) => new Date(iso);

async function meterAt(w: World, iso: string): Promise<void> {
  w.clock.set(at(iso));
  await w.metering.run();
}

async function warnings(
  w: World,
  accountId: string,
): Promise<{ type: string; available_usd: string; balance_usd: string }[]> {
  const rows = await w.sql<{ type: string; payload: { data: { available_usd: string; balance_usd: string } } }[]>`
    select type, payload from events where account_id = ${accountId} and (type like 'credit.%' or type like 'balance.%') order by seq`;
  return rows.map((r) => ({
    type: r.type,
    available_usd: r.payload.data.available_usd,
    balance_usd: r.payload.data.balance_usd,
  }));
}

async function state(w: World, accountId: string) {
  const [row] = await w.sql<{ warning: string | null; depleted: Date | null }[]>`
    select balance_warning as warning, balance_depleted_at as depleted from accounts where id = ${accountId}`;
  return { warning: row?.warning ?? null, depleted: row?.depleted?.toISOString() ?? null };
}

async function streamState(w: World, id: string) {
  const [row] = await w.sql<
    {
      status: string;
      end_reason: string | null;
      ended_at: Date | null;
      delete_at: Date | null;
      reason: string | null;
    }[]
  >`
    select status, end_reason, ended_at, recording_delete_at as delete_at, recording_delete_reason as reason from streams where id = ${id}`;
  return {
    status: row?.status,
    end_reason: row?.end_reason ?? null,
    ended_at: row?.ended_at?.toISOString() ?? null,
    delete_at: row?.delete_at?.toISOString() ?? null,
    reason: row?.reason ?? null,
  };
}

/** An ended stream that only delivery is charged on (no recording). */
async function deliveryStream(w: World, accountId: string): Promise<string> {
  const stream = await newStream(w, accountId, { record: false });
  await join(w, stream.id, w.clock.now());
  await end(w, stream.id, w.clock.now());
  return stream.id;
}

t(
  'a prepaid live stream ends insufficient_credit when the available amount reaches zero, before the balance does',
  async ({ w }) => {
    w.clock.set(at('2026-11-21T09:00:00Z'));
    const account = await w.accounts.create({ name: 'Thin', creditUsd: '0.01' });
    const stream = await newStream(w, account.id, { profile: 'abr_basic' });
    await join(w, stream.id, at('2026-11-21T10:00:00Z'));

    // 0.01 USD is 200 s of abr_basic: charged minutes plus the seconds not charged yet.
    await meterAt(w, '2026-11-21T10:01:06Z');
    await meterAt(w, '2026-11-21T10:02:06Z');
    await meterAt(w, '2026-11-21T10:03:10Z');
    assert.is((await streamState(w, stream.id)).status, 'live');
    let usage = await w.billing.usage(account, 1);
    assert.equal([usage.balance_usd, usage.available_usd], ['0.001', '0.0005']);

    await meterAt(w, '2026-11-21T10:03:20Z');
    assert.equal(await streamState(w, stream.id), {
      status: 'ended',
      end_reason: 'insufficient_credit',
      ended_at: '2026-11-21T10:03:20.000Z',
      delete_at: null,
      reason: null,
    });
    assert.equal(w.endedLinks, [stream.id], 'the publisher is dropped');
    usage = await w.billing.usage(account, 1);
    assert.equal(
      [usage.balance_usd, usage.available_usd, usage.balance_depleted_at],
      ['0.001', '0.00', null],
      'the balance is not at zero yet',
    );
    assert.equal(await state(w, account.id), { warning: 'depleted', depleted: null });

    // The next run charges the last 20 s: now the balance is at zero.
    await meterAt(w, '2026-11-21T10:03:30Z');
    await meterAt(w, '2026-11-21T10:03:40Z');
    usage = await w.billing.usage(account, 1);
    assert.equal([usage.charged_usd, usage.balance_usd, usage.available_usd], ['0.01', '0.00', '0.00']);
    assert.is(usage.balance_depleted_at, '2026-11-21T10:03:30.000Z');
    assert.is(usage.recordings_delete_at, '2026-11-28T10:03:30.000Z');
    assert.equal(w.endedLinks, [stream.id], 'ended once');
    assert.equal(
      (await warnings(w, account.id)).map((e) => e.type),
      ['credit.low', 'credit.depleted'],
    );
  },
);

t('warnings go out once per crossing and again after a top-up', async ({ w }) => {
  w.clock.set(at('2026-11-21T10:00:00Z'));
  const account = await w.accounts.create({ name: 'Warned', creditUsd: '6' });
  const stream = await deliveryStream(w, account.id);

  await meterAt(w, '2026-11-21T10:01:00Z');
  assert.equal(await warnings(w, account.id), [], 'above low_credit_usd (5.00)');
  await deliver(w.sql, stream, at('2026-11-21T10:01:00Z'), 50_000_000_000n); // 1.50 USD
  await meterAt(w, '2026-11-21T10:02:00Z');
  await meterAt(w, '2026-11-21T10:02:00Z');
  await meterAt(w, '2026-11-21T10:02:10Z');
  assert.equal(await warnings(w, account.id), [{ type: 'credit.low', available_usd: '4.50', balance_usd: '4.50' }]);

  await deliver(w.sql, stream, at('2026-11-21T10:02:00Z'), 150_000_000_000n); // 4.50 USD
  await meterAt(w, '2026-11-21T10:03:00Z');
  await meterAt(w, '2026-11-21T10:03:10Z');
  assert.equal(
    (await warnings(w, account.id)).map((e) => [e.type, e.balance_usd]),
    [
      ['credit.low', '4.50'],
      ['credit.depleted', '0.00'],
    ],
  );
  assert.equal(await state(w, account.id), { warning: 'depleted', depleted: '2026-11-21T10:03:00.000Z' });

  w.clock.set(at('2026-11-21T10:04:00Z'));
  await w.accounts.addCredit(account.id, '10');
  await meterAt(w, '2026-11-21T10:04:05Z');
  assert.equal(await state(w, account.id), { warning: null, depleted: null }, 'a top-up re-arms the warnings');
  await deliver(w.sql, stream, at('2026-11-21T10:04:00Z'), 200_000_000_000n); // 6.00 USD
  await meterAt(w, '2026-11-21T10:05:00Z');
  await meterAt(w, '2026-11-21T10:05:10Z');
  assert.equal(
    (await warnings(w, account.id)).map((e) => [e.type, e.balance_usd]),
    [
      ['credit.low', '4.50'],
      ['credit.depleted', '0.00'],
      ['credit.low', '4.00'],
    ],
  );
});

t('a depleted prepaid balance puts ready recordings on the zero-balance deadline; credit lifts it', async ({ w }) => {
  w.clock.set(at('2026-11-21T10:00:00Z'));
  const account = await w.accounts.create({ name: 'Depleted', creditUsd: '0.05' });
  const kept = await newStream(w, account.id, { retentionDays: 30 });
  const forever = await newStream(w, account.id, { retentionDays: null });
  const short = await newStream(w, account.id, { retentionDays: 1 });
  for (const s of [kept, forever, short]) {
    await join(w, s.id, at('2026-11-21T10:00:00Z'));
    await end(w, s.id, at('2026-11-21T10:00:10Z'));
    await recordingReady(w, s.id, at('2026-11-21T10:05:00Z'), 1000);
  }
  await meterAt(w, '2026-11-21T10:06:00Z');
  assert.equal(await streamState(w, kept.id), {
    status: 'ended',
    end_reason: 'deleted',
    ended_at: '2026-11-21T10:00:10.000Z',
    delete_at: '2026-12-21T10:05:00.000Z',
    reason: 'retention',
  });

  await deliver(w.sql, kept.id, at('2026-11-21T10:06:00Z'), 2_000_000_000n); // 0.06 USD
  await meterAt(w, '2026-11-21T10:07:00Z');
  const deadline = new Date(Date.parse('2026-11-21T10:07:00Z') + 7 * DAY).toISOString();
  assert.equal(await state(w, account.id), { warning: 'depleted', depleted: '2026-11-21T10:07:00.000Z' });
  assert.equal(
    [(await streamState(w, kept.id)).delete_at, (await streamState(w, kept.id)).reason],
    [deadline, 'zero_balance'],
  );
  assert.equal(
    [(await streamState(w, forever.id)).delete_at, (await streamState(w, forever.id)).reason],
    [deadline, 'zero_balance'],
  );
  assert.equal(
    [(await streamState(w, short.id)).delete_at, (await streamState(w, short.id)).reason],
    ['2026-11-22T10:05:00.000Z', 'retention'],
    'an earlier retention date stays',
  );
  assert.is((await w.billing.usage(account, 1)).recordings_delete_at, deadline);

  // A recording that becomes ready while the balance is gone gets the same deadline; the depletion date does not move.
  const late = await newStream(w, account.id, { retentionDays: 30 });
  await join(w, late.id, at('2026-11-21T11:00:00Z'));
  await end(w, late.id, at('2026-11-21T11:00:01Z'));
  await recordingReady(w, late.id, at('2026-11-21T11:05:00Z'), 1000);
  await meterAt(w, '2026-11-21T11:06:00Z');
  assert.equal(
    [(await streamState(w, late.id)).delete_at, (await streamState(w, late.id)).reason],
    [deadline, 'zero_balance'],
  );

  w.clock.set(at('2026-11-21T12:00:00Z'));
  await w.accounts.addCredit(account.id, '5');
  await meterAt(w, '2026-11-21T12:00:10Z');
  assert.equal(await state(w, account.id), { warning: 'low', depleted: null });
  assert.equal(
    [(await streamState(w, kept.id)).delete_at, (await streamState(w, kept.id)).reason],
    ['2026-12-21T10:05:00.000Z', 'retention'],
  );
  assert.equal([(await streamState(w, forever.id)).delete_at, (await streamState(w, forever.id)).reason], [null, null]);
  assert.equal(
    [(await streamState(w, late.id)).delete_at, (await streamState(w, late.id)).reason],
    ['2026-12-21T11:05:00.000Z', 'retention'],
  );
  assert.is((await w.billing.usage(account, 1)).recordings_delete_at, null);
});

t(
  'retention dates come back exact after the deadline is lifted, across a daylight-saving change of the server’s time zone',
  async ({ w }) => {
    w.clock.set(at('2026-10-20T10:00:00Z'));
    const account = await w.accounts.create({ name: 'Autumn', creditUsd: '0.01' });
    const stream = await newStream(w, account.id, { retentionDays: 30 });
    await join(w, stream.id, at('2026-10-20T10:00:00Z'));
    await end(w, stream.id, at('2026-10-20T10:00:10Z'));
    await recordingReady(w, stream.id, at('2026-10-20T10:05:00Z'), 1000);
    // 30 days of 24 h after ready (Berlin leaves summer time on 25 October in between).
    const retention = { delete_at: '2026-11-19T10:05:00.000Z', reason: 'retention' };
    const pick = async () => {
      const { delete_at, reason } = await streamState(w, stream.id);
      return { delete_at, reason };
    };
    assert.equal(await pick(), retention);
    await deliver(w.sql, stream.id, at('2026-10-20T10:06:00Z'), 1_000_000_000n);
    await meterAt(w, '2026-10-20T10:07:00Z');
    assert.equal(await pick(), { delete_at: '2026-10-27T10:07:00.000Z', reason: 'zero_balance' });
    w.clock.set(at('2026-10-21T10:00:00Z'));
    await w.accounts.addCredit(account.id, '10');
    await meterAt(w, '2026-10-21T10:00:10Z');
    assert.equal(await pick(), retention);
  },
);

t('postpaid: warned about the balance, never ended, recordings kept', async ({ w }) => {
  w.clock.set(at('2026-11-21T10:00:00Z'));
  const account = await w.accounts.create({ name: 'Invoice', creditUsd: '0', postpaid: true });
  const stream = await newStream(w, account.id);
  const recorded = await newStream(w, account.id, { retentionDays: 30 });
  await join(w, recorded.id, at('2026-11-21T10:00:00Z'));
  await end(w, recorded.id, at('2026-11-21T10:00:30Z'));
  await recordingReady(w, recorded.id, at('2026-11-21T10:01:00Z'), 1000);
  await join(w, stream.id, at('2026-11-21T10:00:00Z'));
  for (const m of ['02', '03', '04', '05']) await meterAt(w, `2026-11-21T10:${m}:06Z`);

  assert.is((await streamState(w, stream.id)).status, 'live');
  assert.equal(w.endedLinks, []);
  const usage = await w.billing.usage(account, 1);
  assert.is(usage.billing_mode, 'postpaid');
  assert.is(usage.balance_usd, '-0.0165');
  assert.is(usage.balance_depleted_at, '2026-11-21T10:02:06.000Z');
  assert.is(usage.recordings_delete_at, null);
  assert.equal((await streamState(w, recorded.id)).reason, 'retention');
  assert.equal(
    (await warnings(w, account.id)).map((e) => e.type),
    ['balance.depleted'],
  );
});

t(
  'stream creation needs 1.00 USD available, live usage not yet charged included; postpaid is never refused',
  async ({ w }) => {
    w.clock.set(at('2026-11-21T10:00:00Z'));
    const account = await w.accounts.create({ name: 'Edge', creditUsd: '1.02' });
    const check = (id: string) => w.sql.begin(async (tx) => w.billing.checkCreate(tx, await w.accounts.get(id)));
    await check(account.id);
    const stream = await newStream(w, account.id);
    await join(w, stream.id, at('2026-11-21T10:00:00Z'));
    // Nothing charged yet, but 30 s of abr_basic (0.0015) used: 1.0185 available is still enough.
    w.clock.set(at('2026-11-21T10:00:30Z'));
    await check(account.id);
    // 7 min 1 s used (0.02105): 0.99895 available.
    w.clock.set(at('2026-11-21T10:07:01Z'));
    const refused = await check(account.id).then(
      () => null,
      (err: unknown) => err,
    );
    assert.instance(refused, ApiError);
    assert.is((refused as ApiError).code, 'insufficient_credit');
    assert.equal((refused as ApiError).details, { available_usd: '0.99895', required_usd: '1.00' });

    const postpaid = await w.accounts.create({ name: 'Edge', creditUsd: '0', postpaid: true });
    await check(postpaid.id);
  },
);

t.run();
