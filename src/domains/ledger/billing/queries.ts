import type { BillingRates } from '../../../config/schema.js';
import type { Db } from '../../../platform/db/connect.js';
import type { Fragment } from '../../../platform/db/embed.js';
import { ITEM_UNITS, ITEMS, type Item } from './items.js';

/** The rates as rows of json text, made once per rates object: one parameter for every statement that prices. */
const ratesRows = new WeakMap<BillingRates, string>();
export function ratesJson(rates: BillingRates): string {
  let json = ratesRows.get(rates);
  if (json === undefined) {
    json = JSON.stringify(
      ITEMS.map((item) => ({ item, rate: rates[ITEM_UNITS[item].rate], divisor: ITEM_UNITS[item].divisor.toString() })),
    );
    ratesRows.set(rates, json);
  }
  return json;
}

/** The rates as a table (item, rate, divisor) inside a query: prices are computed by PostgreSQL in numeric (from text, exact). */
function ratesTable(db: Db, rates: BillingRates) {
  return db`(select item, rate::numeric, divisor::numeric from jsonb_to_recordset(${ratesJson(rates)}::text::jsonb) as x (item text, rate text, divisor text)) as r`;
}

export interface NewCharge {
  stream_id: string;
  account_id: string;
  item: Item;
  period_start: Date;
  /** Whole units (seconds, bytes, byte-seconds). */
  quantity: bigint;
}

/**
 * Writes charges and adds them to their accounts' `charged_usd`, in the caller's transaction.
 * Each amount is round(rate x running total) minus round(rate x the running total before it),
 * per stream and item, so a stream's amounts add up to its total priced once.
 * `once`: a period already charged is left alone (ingest, storage: a repeated run changes nothing).
 * `add`: the quantity is added to the period's row (delivery: the caller charges only what was
 * not charged, in the transaction that marks it charged).
 */
export async function writeCharges(
  tx: Db,
  rows: NewCharge[],
  mode: 'once' | 'add',
  rates: BillingRates,
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  const before = new Map<string, bigint>();
  const earlier = rows.map((r) => {
    const key = `${r.stream_id}\u0000${r.item}`;
    const sum = before.get(key) ?? 0n;
    before.set(key, sum + r.quantity);
    return sum.toString();
  });
  const col = <K extends keyof NewCharge>(k: K) => rows.map((r) => r[k]);
  const conflict =
    mode === 'once'
      ? tx`on conflict (stream_id, item, period_start) do nothing`
      : tx`on conflict (stream_id, item, period_start) do update set
        quantity = charges.quantity + excluded.quantity, amount_usd = charges.amount_usd + excluded.amount_usd`;
  await tx`
    with input as (
      select * from unnest(
        ${col('stream_id')}::text[], ${col('item')}::text[], ${rows.map((r) => r.period_start.toISOString())}::timestamptz[],
        ${col('account_id')}::text[], ${rows.map((r) => r.quantity.toString())}::numeric[], ${earlier}::numeric[]
      ) as i (stream_id, item, period_start, account_id, quantity, earlier)
    ),
    priced as (
      select i.stream_id, i.item, i.period_start, i.account_id, i.quantity,
        round(r.rate * (c.q + i.earlier + i.quantity) / r.divisor, 6) - round(r.rate * (c.q + i.earlier) / r.divisor, 6) as amount
      from input i
      join ${ratesTable(tx, rates)} using (item)
      cross join lateral (select coalesce(sum(quantity), 0) as q from charges where stream_id = i.stream_id and item = i.item) c
    ),
    written as (
      insert into charges (stream_id, item, period_start, account_id, quantity, amount_usd, charged_at)
      select stream_id, item, period_start, account_id, quantity, amount, ${now} from priced
      ${conflict}
      returning stream_id, item, period_start
    )
    update accounts a set charged_usd = a.charged_usd + t.amount
    from (
      select p.account_id, sum(p.amount) as amount from priced p
      join written w using (stream_id, item, period_start)
      group by p.account_id
    ) t
    where a.id = t.account_id`;
}

export interface MeteredStream {
  id: string;
  account_id: string;
  profile: 'abr_basic' | 'passthrough';
  status: string;
  went_live_at: Date;
  ended_at: Date | null;
  ingest_metered_until: Date | null;
  sessions: { started_at: string; ended_at: string | null }[];
}

/** Streams that published and are not charged to their end, with their sessions, locked for this run. */
export async function ingestToMeter(tx: Db): Promise<MeteredStream[]> {
  return tx<MeteredStream[]>`
    select s.id, s.account_id, s.profile, s.status, s.went_live_at, s.ended_at, s.ingest_metered_until,
      coalesce((select json_agg(json_build_object('started_at', p.started_at, 'ended_at', p.ended_at) order by p.started_at)
        from publish_sessions p where p.stream_id = s.id), '[]') as sessions
    from streams s
    where s.went_live_at is not null and (s.ended_at is null or s.ingest_metered_until is null or s.ingest_metered_until < s.ended_at)
    for no key update of s skip locked`;
}

export interface StoredRecording {
  id: string;
  account_id: string;
  recording_bytes: string | null;
  recording_ready_at: Date;
  recording_deleted_at: Date | null;
  storage_metered_until: Date | null;
}

/** Recordings that occupied disk and are not charged to their deletion, locked for this run. */
export async function storageToMeter(tx: Db): Promise<StoredRecording[]> {
  return tx<StoredRecording[]>`
    select id, account_id, recording_bytes::text, recording_ready_at, recording_deleted_at, storage_metered_until
    from streams
    where recording_ready_at is not null and (recording_deleted_at is null or storage_metered_until is null or storage_metered_until < recording_deleted_at)
    for no key update skip locked`;
}

export async function setMetered(
  tx: Db,
  column: 'ingest_metered_until' | 'storage_metered_until',
  until: { id: string; at: Date }[],
): Promise<void> {
  if (until.length === 0) return;
  await tx`
    update streams s set ${tx(column)} = u.at
    from unnest(${until.map((u) => u.id)}::text[], ${until.map((u) => u.at.toISOString())}::timestamptz[]) as u (id, at)
    where s.id = u.id`;
}

export interface UnchargedDelivery {
  stream_id: string;
  account_id: string;
  minute: Date;
  bytes: string;
  charged_bytes: string;
}

export async function deliveryToCharge(tx: Db): Promise<UnchargedDelivery[]> {
  return tx<UnchargedDelivery[]>`
    select d.stream_id, s.account_id, d.minute, d.bytes::text, d.charged_bytes::text
    from delivery_minutes d join streams s on s.id = d.stream_id
    where d.bytes > d.charged_bytes
    order by d.stream_id, d.minute
    for update of d`;
}

/** Marks what was read as charged; bytes the reader added meanwhile stay above it for the next run. */
export async function markDeliveryCharged(tx: Db, rows: UnchargedDelivery[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`
    update delivery_minutes d set charged_bytes = u.bytes
    from unnest(${rows.map((r) => r.stream_id)}::text[], ${rows.map((r) => r.minute.toISOString())}::timestamptz[], ${rows.map((r) => r.bytes)}::bigint[]) as u (stream_id, minute, bytes)
    where d.stream_id = u.stream_id and d.minute = u.minute`;
}

export interface ItemMoney {
  stream_id: string;
  item: Item;
  /** Whole units used so far (charged or not). */
  quantity: string;
  /** Charged plus used-but-not-charged, priced like the ledger prices it. */
  amount_usd: string;
  charged_usd: string;
}

/**
 * Each item of the given streams as of `now`: quantity used so far and its price, whether charged
 * yet or not (`item_money`, migration 015). `streams` is an expression: an array of stream ids.
 */
function itemMoney(db: Db, streams: Fragment, rates: BillingRates, now: Date): Fragment {
  return db`item_money(${streams}, ${now}, ${ratesJson(rates)}::text::jsonb)`;
}

/**
 * Each item of one stream (`ItemMoney`, amounts as exact text) as one json array: text to compose
 * a stream's read with (`runComposed`). Arguments are expressions: the stream's id (the read's own
 * row's), the time and the rates (`ratesJson`) as parameters.
 */
export function streamItemsJsonSql(streamId: string, at: string, rates: string): string {
  return `(
    select coalesce(json_agg(i), '[]') from (
      select stream_id, item, quantity::text, amount::text as amount_usd, charged::text as charged_usd
      from item_money(array[${streamId}], ${at}, ${rates}::text::jsonb) m) i)`;
}

export interface AccountMoney {
  id: string;
  billing_mode: 'prepaid' | 'postpaid';
  credit_usd: string;
  charged_usd: string;
  /** credit - charged */
  balance_usd: string;
  /** balance - used but not yet charged */
  available_usd: string;
  balance_depleted_at: Date | null;
  balance_warning: 'low' | 'depleted' | null;
}

/**
 * Balance and available amount of accounts as of `now`. Only streams with something not yet
 * charged are priced: live or not charged to their end, a recording on disk, delivery not charged.
 */
export async function accountMoney(
  db: Db,
  accountIds: string[],
  rates: BillingRates,
  now: Date,
): Promise<AccountMoney[]> {
  if (accountIds.length === 0) return [];
  const open = db`
    select id from streams where account_id = any(${accountIds}::text[]) and (
      (went_live_at is not null and (ended_at is null or ingest_metered_until is null or ingest_metered_until < ended_at))
      or (recording_ready_at is not null and (recording_deleted_at is null or storage_metered_until is null or storage_metered_until < recording_deleted_at))
      or exists (select 1 from delivery_minutes d where d.stream_id = streams.id and d.bytes > d.charged_bytes))`;
  const rows = await db`
    select a.id, a.billing_mode, a.credit_usd::text, a.charged_usd::text, (a.credit_usd - a.charged_usd)::text as balance_usd,
      (a.credit_usd - a.charged_usd - coalesce(u.uncharged, 0))::text as available_usd, a.balance_depleted_at, a.balance_warning
    from accounts a
    left join (
      select s.account_id, sum(m.amount - m.charged) as uncharged
      from ${itemMoney(db, db`array(${open})`, rates, now)} m join streams s on s.id = m.stream_id
      group by s.account_id
    ) u on u.account_id = a.id
    where a.id = any(${accountIds}::text[])`;
  return rows as unknown as AccountMoney[];
}

/** Whole seconds the account's streams published within [from, to). */
export async function publishedSeconds(db: Db, accountId: string, from: Date, to: Date): Promise<number> {
  const [row] = await db<{ seconds: number }[]>`
    select coalesce(floor(extract(epoch from sum(least(coalesce(p.ended_at, ${to}), ${to}) - greatest(p.started_at, ${from})))), 0)::float8 as seconds
    from publish_sessions p join streams s on s.id = p.stream_id
    where s.account_id = ${accountId} and p.started_at < ${to} and (p.ended_at is null or p.ended_at > ${from})`;
  return row?.seconds ?? 0;
}

export interface DayItem {
  day: string;
  item: Item;
  quantity: string;
  amount_usd: string;
}

/** The account's charges per UTC day and item within [from, to). */
export async function chargesByDay(db: Db, accountId: string, from: Date, to: Date): Promise<DayItem[]> {
  return db<DayItem[]>`
    select to_char(period_start at time zone 'UTC', 'YYYY-MM-DD') as day, item, sum(quantity)::text as quantity, sum(amount_usd)::text as amount_usd
    from charges where account_id = ${accountId} and period_start >= ${from} and period_start < ${to}
    group by 1, 2 order by 1, 2`;
}

/** Credit added per UTC day within [from, to), and the balance before `from` (credits minus charges). */
export async function creditsByDay(
  db: Db,
  accountId: string,
  from: Date,
  to: Date,
): Promise<{ days: { day: string; amount_usd: string }[]; opening_usd: string }> {
  const days = await db<{ day: string; amount_usd: string }[]>`
    select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, sum(amount_usd)::text as amount_usd
    from credits where account_id = ${accountId} and created_at >= ${from} and created_at < ${to}
    group by 1 order by 1`;
  const [opening] = await db<{ amount: string }[]>`
    select ((select coalesce(sum(amount_usd), 0) from credits where account_id = ${accountId} and created_at < ${from})
      - (select coalesce(sum(amount_usd), 0) from charges where account_id = ${accountId} and period_start < ${from}))::text as amount`;
  return { days, opening_usd: opening?.amount ?? '0' };
}
