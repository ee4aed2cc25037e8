import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { Receiver } from '../helpers/receiver.js';
import { assertError, assertInvalidField } from '../helpers/streams.js';
import { ingestPrice, micros, sumUsd, usd } from '../helpers/usd.js';

/**
 * Money end to end with the real parts (appliance, nginx, ffmpeg publishers, the metering job,
 * webhooks to a loopback receiver). Rates are raised so that a few cents run out in 20 s; the
 * monthly ingest cap of new accounts is 36 s. The scenarios run at once (each on its own
 * account) from `before`; each test waits for its own and checks it.
 */
const RATES = { abr_basic_per_minute: '0.09', passthrough_per_minute: '0.000777' };
const LOW_CREDIT = '0.015';
const CAP_HOURS = 0.01;
const PUBLISH_SECONDS = 120;

let app: TestAppliance;
let receiver: Receiver;
let clip: string;
const publishers: Publisher[] = [];
let twoProfiles: Promise<TwoProfiles>;
let prepaid: Promise<RunOut>;
let postpaid: Promise<RunOut>;
let capped: Promise<Capped>;

// Tests read arbitrary response fields.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
interface Delivered {
  type: string;
  timestamp: string;
  data: Json;
}

const start = (streamKey: string, opts: { seconds?: number } = {}): Publisher => {
  const p = publish(app.rtmpUrl(streamKey), clip, { loop: true, ...opts });
  publishers.push(p);
  return p;
};

async function create(key: string, body: Record<string, unknown>): Promise<Json> {
  const res = await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480, ...body } });
  assert.is(res.status, 201, res.text);
  return res.body;
}

async function webhookTo(key: string, path: string): Promise<void> {
  const res = await app.call('POST', '/v1/webhooks', { key, body: { url: receiver.url(path) } });
  assert.is(res.status, 201, res.text);
  receiver.expectSecrets(path, res.body.secret);
}

const delivered = (path: string): Delivered[] => receiver.on(path).map((r) => JSON.parse(r.body) as Delivered);
const deliveredOf = (path: string, type: string) => delivered(path).filter((e) => e.type === type);
const exitedWithin = (p: Publisher, ms: number): Promise<number | null> =>
  Promise.race([p.exited.then(() => Date.now()), new Promise<null>((r) => setTimeout(() => r(null), ms))]);

async function usage(key: string, query = ''): Promise<Json> {
  const res = await app.call('GET', `/v1/usage${query}`, { key });
  assert.is(res.status, 200, res.text);
  return res.body;
}

/** Until metering has charged the streams to their end. */
const metered = (ids: string[]) =>
  waitFor(
    'ingest charged to the end',
    async () => {
      const rows = await app.db
        .sql`select 1 from streams where id = any(${ids}) and ended_at is not null and ingest_metered_until >= ended_at`;
      return rows.length === ids.length;
    },
    30_000,
    250,
  );

/** A scenario's promise, failing in its own test rather than as an unhandled rejection. */
function scenario<T>(run: () => Promise<T>): Promise<T> {
  const p = run();
  p.catch(() => undefined);
  return p;
}

interface TwoProfiles {
  key: string;
  credit: string;
  streams: {
    id: string;
    profile: 'abr_basic' | 'passthrough';
    publishedMs: number;
    sentSeconds: number;
    midway: Json;
  }[];
}

/** A trusted account publishes abr_basic and passthrough for 2 minutes at once, then ends both. */
async function publishTwoProfiles(): Promise<TwoProfiles> {
  const credit = '50';
  const { key } = await app.newAccount({ trusted: true, credit });
  const made = await Promise.all((['abr_basic', 'passthrough'] as const).map((profile) => create(key, { profile })));
  const streams = await Promise.all(
    made.map(async (s) => {
      const startedAt = Date.now();
      const p = start(s.stream_key, { seconds: PUBLISH_SECONDS });
      await waitFor('60 s sent', async () => p.sentSeconds() >= 60, 90_000, 500);
      const midway = (await streamOf(app, key, s.id)).cost;
      await p.exited;
      const publishedMs = Date.now() - startedAt;
      const ended = await app.call('DELETE', `/v1/streams/${s.id}`, { key });
      assert.is(ended.status, 200, ended.text);
      return { id: s.id as string, profile: s.profile, publishedMs, sentSeconds: p.sentSeconds(), midway };
    }),
  );
  await metered(streams.map((s) => s.id));
  return { key, credit, streams };
}

interface RunOut {
  key: string;
  streamId: string;
  publisher: Publisher;
  refused?: Json;
  /** When the credit (or balance) of the account was used up: its session start + the seconds it paid for. */
  zeroAt: number;
  ended?: Json;
  exitedAt?: number | null;
  liveAfterZero?: Json;
  usage?: Json;
}

/** Whole seconds of abr_basic that `credit` pays for: the first second count priced at or above it. */
function secondsPaidBy(credit: string): number {
  let s = 0;
  while (micros(ingestPrice(s, RATES.abr_basic_per_minute)) < micros(credit)) s++;
  return s;
}

async function sessionStart(streamId: string): Promise<number> {
  const [row] = await app.db.sql<
    { started_at: Date }[]
  >`select started_at from publish_sessions where stream_id = ${streamId} order by started_at limit 1`;
  if (!row) throw new Error(`no publish session of ${streamId}`);
  return row.started_at.getTime();
}

/** A prepaid account with a few cents goes live and runs out. */
async function prepaidRunsOut(): Promise<RunOut> {
  const { id, key } = await app.newAccount({ credit: '1.00' });
  await webhookTo(key, '/prepaid');
  const s = await create(key, { profile: 'abr_basic' });
  await app.accounts.addCredit(id, '-0.97', { force: true });
  const refused = await app.call('POST', '/v1/streams', { key, body: {} });
  const publisher = start(s.stream_key);
  const ended = await waitFor(
    'the stream ended',
    async () => {
      const now = await streamOf(app, key, s.id);
      return now.status === 'ended' && now;
    },
    90_000,
    250,
  );
  const exitedAt = await exitedWithin(publisher, 15_000);
  await waitFor('stream.ended delivered', async () => deliveredOf('/prepaid', 'stream.ended').length > 0, 15_000, 100);
  const zeroAt = (await sessionStart(s.id)) + secondsPaidBy('0.03') * 1000;
  return { key, streamId: s.id, publisher, refused, zeroAt, ended, exitedAt };
}

/** A postpaid account with the same few cents goes live, runs past zero and is ended by DELETE. */
async function postpaidRunsPast(): Promise<RunOut> {
  const { key } = await app.newAccount({ credit: '0.03', postpaid: true });
  await webhookTo(key, '/postpaid');
  const s = await create(key, { profile: 'abr_basic' });
  const publisher = start(s.stream_key);
  await waitFor(
    'balance.depleted delivered',
    async () => deliveredOf('/postpaid', 'balance.depleted').length > 0,
    90_000,
    100,
  );
  const zeroAt = (await sessionStart(s.id)) + secondsPaidBy('0.03') * 1000;
  // Well past zero: 10 s more than the balance paid for.
  await waitFor('10 s past zero', async () => Date.now() > zeroAt + 10_000, 60_000, 250);
  const liveAfterZero = await streamOf(app, key, s.id);
  const ended = await app.call('DELETE', `/v1/streams/${s.id}`, { key });
  const exitedAt = await exitedWithin(publisher, 10_000);
  await metered([s.id]);
  return {
    key,
    streamId: s.id,
    publisher,
    zeroAt,
    ended: ended.body,
    exitedAt,
    liveAfterZero,
    usage: await usage(key),
  };
}

interface Capped {
  key: string;
  first: string;
  second: string;
  publishedSeconds: number;
  refused: Json;
  secondExit: number | undefined;
  secondAfter: Json;
  usage: Json;
}

/** A new account publishes past its monthly ingest cap (36 s). */
async function publishPastCap(): Promise<Capped> {
  const { key } = await app.newAccount();
  const first = await create(key, { profile: 'passthrough' });
  const second = await create(key, { profile: 'passthrough' });
  const p = start(first.stream_key, { seconds: 40 });
  await p.exited;
  const refused = await app.call('POST', '/v1/streams', { key, body: {} });
  assert.is((await app.call('DELETE', `/v1/streams/${first.id}`, { key })).status, 200);
  // The stream created before the cap was reached may not go live either.
  const secondExit = await start(second.stream_key).exited;
  return {
    key,
    first: first.id,
    second: second.id,
    publishedSeconds: p.sentSeconds(),
    refused,
    secondExit,
    secondAfter: await streamOf(app, key, second.id),
    usage: await usage(key),
  };
}

test.before(async () => {
  app = await startTestAppliance({
    allow_private_webhooks: true,
    billing: { rates: RATES, low_credit_usd: LOW_CREDIT, meter_seconds: 2 },
    limits: { new: { ingest_hours_per_month: CAP_HOURS } },
  });
  receiver = await Receiver.start();
  clip = await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 });
  twoProfiles = scenario(publishTwoProfiles);
  prepaid = scenario(prepaidRunsOut);
  postpaid = scenario(postpaidRunsPast);
  capped = scenario(publishPastCap);
});

test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await receiver?.close();
  await app?.close();
});

test('GET /v1/usage: days 1-90 (default 30), anything else and unknown fields are 400 invalid_request naming the field', async () => {
  const { key } = await app.newAccount();
  for (const days of ['0', '91', 'abc', '1.5', '-1', ''])
    assertInvalidField(await app.call('GET', `/v1/usage?days=${days}`, { key }), 'days');
  assertInvalidField(await app.call('GET', '/v1/usage?verbose=1', { key }), 'verbose');
  assertInvalidField(await app.call('GET', '/v1/usage?days=7&from=2026-01-01', { key }), 'from');
  assertError(await app.call('GET', '/v1/usage'), 401, 'unauthorized');

  const today = new Date().toISOString().slice(0, 10);
  const byDefault = await usage(key);
  assert.is(byDefault.days.length, 30);
  assert.is(byDefault.days.at(-1).date, today, 'today last');
  assert.is((await usage(key, '?days=1')).days.length, 1);
  assert.is((await usage(key, '?days=90')).days.length, 90);
  assert.is(byDefault.billing_mode, 'prepaid');
  assert.equal(byDefault.rates, { ...RATES, delivery_per_gb: '0.03', storage_per_gb_month: '0.03' });

  const doc = await app.call('GET', '/openapi.json');
  const days = doc.body.paths['/v1/usage'].get.parameters.find((p: Json) => p.name === 'days');
  assert.equal(
    [days.in, days.schema.minimum, days.schema.maximum, days.schema.default],
    ['query', 1, 90, 30],
    JSON.stringify(days),
  );
});

test('limit_ingest_hours: past the monthly cap creation is refused with 429 and a clear message, and a waiting stream cannot go live', async () => {
  const c = await capped;
  console.log(`\n  capped account published ${c.publishedSeconds.toFixed(1)} s (cap ${CAP_HOURS * 3600} s)`);
  assertError(c.refused, 429, 'limit_ingest_hours');
  const e = c.refused.body.error;
  assert.match(e.message, /ingest hours/);
  assert.match(e.message, new RegExp(`of its ${CAP_HOURS} ingest hours this month`));
  assert.is(e.details.limit_hours, CAP_HOURS);
  assert.ok(e.details.used_hours >= CAP_HOURS, JSON.stringify(e.details));
  assert.ok(c.secondExit !== 0, 'the publisher of the waiting stream is refused');
  assert.is(c.secondAfter.status, 'pending');
  const log = readFileSync(join(app.dataDir, 'logs', 'svc.log'), 'utf8');
  assert.ok(
    log.split('\n').some((l) => l.includes(c.second) && l.includes('"reason":"limit_ingest_hours"')),
    'refused for the cap',
  );
  assert.is(c.usage.ingest_hours_limit, CAP_HOURS);
  assert.ok(c.usage.ingest_hours_used >= CAP_HOURS);
});

test('prepaid: 402 below 1.00 available; credit.low then credit.depleted; the stream ends insufficient_credit within 60 s and its publisher is dropped', async () => {
  const r = await prepaid;
  assertError(r.refused, 402, 'insufficient_credit');
  assert.is(r.refused.body.error.details.available_usd, '0.03');

  const ended = r.ended;
  assert.is(ended.end_reason, 'insufficient_credit');
  const endedAt = Date.parse(ended.ended_at);
  const endDelay = (endedAt - r.zeroAt) / 1000;
  const dropDelay = r.exitedAt ? (r.exitedAt - r.zeroAt) / 1000 : null;
  console.log(
    `  prepaid: available reached 0 at ${new Date(r.zeroAt).toISOString()}; ended ${endDelay.toFixed(2)} s later, publisher exited ${dropDelay?.toFixed(2)} s later; ingest ${ended.cost.ingest_seconds} s = ${ended.cost.ingest_usd} USD`,
  );
  assert.ok(endDelay >= 0, `not ended before the credit ran out (${endDelay} s)`);
  assert.ok(endDelay <= 60, `ended ${endDelay} s after the credit ran out`);
  assert.ok(r.exitedAt !== null, 'the publisher was dropped');
  assert.ok((r.exitedAt as number) - endedAt < 10_000, 'dropped within seconds of the end');
  assert.is(ended.cost.ingest_usd, ingestPrice(ended.cost.ingest_seconds, RATES.abr_basic_per_minute));

  const events = delivered('/prepaid');
  assert.ok(
    receiver.on('/prepaid').every((req) => req.verifyError === null),
    'every delivery verifies',
  );
  const low = deliveredOf('/prepaid', 'credit.low');
  const depleted = deliveredOf('/prepaid', 'credit.depleted');
  assert.is(low.length, 1, `credit.low once: ${events.map((e) => e.type).join(', ')}`);
  assert.is(depleted.length, 1, 'credit.depleted once');
  assert.is(events.filter((e) => e.type.startsWith('balance.')).length, 0, 'no balance.* for a prepaid account');
  assert.ok((low[0] as Delivered).timestamp < (depleted[0] as Delivered).timestamp, 'low before depleted');
  assert.ok(micros((low[0] as Delivered).data.available_usd) <= micros(LOW_CREDIT));
  assert.ok(micros((low[0] as Delivered).data.available_usd) > 0n);
  assert.ok(micros((depleted[0] as Delivered).data.available_usd) <= 0n);
  assert.is((depleted[0] as Delivered).data.billing_mode, 'prepaid');
  const streamEnded = deliveredOf('/prepaid', 'stream.ended');
  assert.is(streamEnded.length, 1);
  assert.is((streamEnded[0] as Delivered).data.id, r.streamId);
  assert.is((streamEnded[0] as Delivered).data.end_reason, 'insufficient_credit');
});

test('postpaid: the same few cents, streams on past zero with balance.low then balance.depleted', async () => {
  const r = await postpaid;
  assert.is(r.liveAfterZero.status, 'live', '10 s after its balance was used up, still live');
  assert.is(r.ended.end_reason, 'deleted');
  assert.ok(r.exitedAt !== null, 'DELETE dropped the publisher');
  const events = delivered('/postpaid');
  assert.is(
    deliveredOf('/postpaid', 'balance.low').length,
    1,
    `balance.low once: ${events.map((e) => e.type).join(', ')}`,
  );
  assert.is(deliveredOf('/postpaid', 'balance.depleted').length, 1, 'balance.depleted once');
  assert.is(events.filter((e) => e.type.startsWith('credit.')).length, 0, 'no credit.* for a postpaid account');
  const low = deliveredOf('/postpaid', 'balance.low')[0] as Delivered;
  const depleted = deliveredOf('/postpaid', 'balance.depleted')[0] as Delivered;
  assert.ok(low.timestamp < depleted.timestamp, 'low before depleted');
  assert.is(depleted.data.billing_mode, 'postpaid');

  const u = r.usage;
  assert.is(u.billing_mode, 'postpaid');
  assert.ok(micros(u.balance_usd) < 0n, `the balance went below zero: ${u.balance_usd}`);
  assert.is(u.balance_usd, usd(micros(u.credit_usd) - micros(u.charged_usd)));
  assert.is(u.recordings_delete_at, null, 'no zero-balance deadline for postpaid');
  console.log(
    `  postpaid: live ${((Date.parse(r.ended.ended_at) - r.zeroAt) / 1000).toFixed(1)} s past zero until DELETE; balance ${u.balance_usd} USD`,
  );
});

test('two profiles for 2 minutes: ingest_seconds is the publishing time, amounts are exact, usage agrees with the stream costs', async () => {
  const r = await twoProfiles;
  const costs: Json[] = [];
  for (const s of r.streams) {
    const stream = await streamOf(app, r.key, s.id);
    const cost = stream.cost;
    costs.push(cost);
    const rate = RATES[`${s.profile}_per_minute`];
    console.log(
      `  ${s.profile.padEnd(11)}: ingest_seconds ${cost.ingest_seconds}, publisher ran ${(s.publishedMs / 1000).toFixed(2)} s, sent ${s.sentSeconds.toFixed(2)} s; ingest ${cost.ingest_usd}, total ${cost.total_usd} USD`,
    );
    assert.ok(
      Math.abs(cost.ingest_seconds - s.publishedMs / 1000) <= 2,
      `${s.profile}: ${cost.ingest_seconds} s charged, published ${s.publishedMs} ms`,
    );
    assert.is(cost.ingest_usd, ingestPrice(cost.ingest_seconds, rate));
    assert.is(cost.total_usd, sumUsd([cost.ingest_usd, cost.delivery_usd, cost.storage_usd]));
    // Live, half-way: the same price for what was used so far.
    assert.is(s.midway.ingest_usd, ingestPrice(s.midway.ingest_seconds, rate));
    assert.ok(s.midway.ingest_seconds >= 58 && s.midway.ingest_seconds <= 63, `midway ${s.midway.ingest_seconds} s`);

    // The ledger: every minute once, adding up to the whole seconds published.
    const charges = await app.db.sql<
      { quantity: string; amount_usd: string }[]
    >`select quantity::text, amount_usd::text from charges where stream_id = ${s.id} and item = ${s.profile}`;
    assert.is(
      charges.reduce((sum, c) => sum + BigInt(c.quantity), 0n),
      BigInt(cost.ingest_seconds),
    );
    assert.is(sumUsd(charges.map((c) => c.amount_usd)), cost.ingest_usd);
  }

  const u = await usage(r.key);
  for (const item of ['abr_basic', 'passthrough', 'delivery', 'storage'] as const) {
    const perDay = u.days.flatMap((d: Json) => d.items.filter((i: Json) => i.item === item));
    const field = item === 'abr_basic' || item === 'passthrough' ? 'ingest_usd' : `${item}_usd`;
    const ofStreams = r.streams.map((s, i) =>
      item === 'abr_basic' || item === 'passthrough'
        ? s.profile === item
          ? costs[i].ingest_usd
          : '0'
        : costs[i][field],
    );
    assert.is(
      sumUsd(perDay.map((i: Json) => i.amount_usd)),
      sumUsd(ofStreams),
      `usage ${item} agrees with the streams`,
    );
  }
  const ingestQuantity = (item: string) =>
    u.days
      .flatMap((d: Json) => d.items.filter((i: Json) => i.item === item))
      .reduce((sum: number, i: Json) => sum + i.quantity, 0);
  assert.is(ingestQuantity('abr_basic'), costs[0].ingest_seconds);
  assert.is(ingestQuantity('passthrough'), costs[1].ingest_seconds);
  const charged = sumUsd(u.days.map((d: Json) => d.total_usd));
  assert.is(charged, sumUsd(costs.map((c) => c.total_usd)));
  assert.is(u.charged_usd, charged);
  assert.is(u.credit_usd, usd(micros(r.credit)));
  assert.is(u.balance_usd, usd(micros(r.credit) - micros(charged)), 'balance = credit - charged');
  assert.is(u.days.at(-1).balance_usd, u.balance_usd, 'the days close on the balance');

  // A trusted account has no monthly cap: it published 4 minutes, more than new accounts may.
  const more = await app.call('POST', '/v1/streams', { key: r.key, body: {} });
  assert.is(more.status, 201, more.text);
  assert.is(u.ingest_hours_limit, null);
});

test.run();
