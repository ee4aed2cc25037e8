/**
 * Billing tests' world: a database with accounts and streams whose publishing, delivery and
 * recordings are written as the live pipeline and the CDN log reader write them, a clock the test
 * sets, and exact expectations computed here in BigInt (never through the code under test).
 */
import { micros, priceMicros } from '../helpers/usd.js';
import { watchMinutesByDay } from '../../src/domains/audience/viewers/queries.js';
import { resolveConfig, type Config } from '../../src/config/config.js';
import type { BillingRates } from '../../src/config/schema.js';
import type { Clock } from '../../src/core/clock.js';
import { newId, sha256 } from '../../src/core/ids.js';
import { createLogger } from '../../src/core/logger.js';
import { connect, type Sql, type Tx } from '../../src/platform/db/connect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { ITEM_UNITS, type Item } from '../../src/domains/ledger/billing/items.js';
import { BillingService } from '../../src/domains/ledger/billing/service.js';
import { MeteringService } from '../../src/domains/back-office/metering/service.js';
import {
  DEFAULT_CHAT,
  DEFAULT_PLAYER,
  insertStream,
  lockStreamById,
  publisherGone,
  publisherJoined,
  type Profile,
  type StreamRow,
} from '../../src/domains/streams/model.js';
import { NO_LIVE } from '../../src/domains/streams/service.js';
import * as transitions from '../../src/domains/streams/transitions.js';

/** A clock the test sets to any time, forwards or back (each scenario starts over). */
export class SetClock implements Clock {
  constructor(public t: number) {}
  now(): Date {
    return new Date(this.t);
  }
  set(at: number | Date): void {
    this.t = typeof at === 'number' ? at : at.getTime();
  }
}

/**
 * A test database whose sessions run in `timeZone`: money and dates must not depend on the
 * server's zone (a half-hour offset or daylight saving shows it when they do).
 */
export async function createZonedDatabase(timeZone: string): Promise<TestDatabase> {
  const db = await createTestDatabase();
  await db.sql.unsafe(`alter database ${new URL(db.url).pathname.slice(1)} set timezone = '${timeZone}'`);
  const sql = connect(db.url);
  return {
    sql,
    url: db.url,
    async drop() {
      await sql.end({ timeout: 5 });
      await db.drop();
    },
  };
}

export const MIN = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;

export interface World {
  sql: Sql;
  clock: SetClock;
  config: Config;
  accounts: AccountsService;
  billing: BillingService;
  metering: MeteringService;
  /** Streams `metering` ended (its LiveLink's `ended` calls). */
  endedLinks: string[];
}

export function createWorld(sql: Sql, start: number, file: Parameters<typeof resolveConfig>[1] = {}): World {
  const clock = new SetClock(start);
  const config = resolveConfig('/nonexistent', { host: 'media.test', ...file });
  const endedLinks: string[] = [];
  const logger = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  return {
    sql,
    clock,
    config,
    endedLinks,
    accounts: new AccountsService(sql, clock),
    billing: new BillingService({ sql, clock, config, watchMinutesByDay }),
    metering: new MeteringService({
      sql,
      clock,
      config,
      logger,
      live: {
        ...NO_LIVE,
        ended: async (id) => {
          endedLinks.push(id);
        },
      },
    }),
  };
}

/** A stream as the API creates it (pending), at the clock's time. */
export async function newStream(
  w: World,
  accountId: string,
  opts: { profile?: Profile; record?: boolean; retentionDays?: number | null } = {},
): Promise<StreamRow> {
  const now = w.clock.now();
  return insertStream(w.sql, {
    id: newId('str_'),
    account_id: accountId,
    name: null,
    status: 'pending',
    profile: opts.profile ?? 'abr_basic',
    latency_mode: 'standard',
    record: opts.record ?? true,
    replay: false,
    max_resolution: 720,
    max_duration_seconds: 14_400,
    recording_retention_days: opts.retentionDays === undefined ? 30 : opts.retentionDays,
    metadata: null,
    player: DEFAULT_PLAYER,
    chat: DEFAULT_CHAT,
    key_hash: sha256(newId('k_')),
    created_at: now,
    reservation_expires_at: new Date(now.getTime() + 1_800_000),
    srt_port: null,
    node_id: null,
    channel_id: null,
  });
}

/** Runs `change` on the locked stream row; false when the row is not in a state it applies to. */
async function withStream(
  w: World,
  id: string,
  change: (tx: Tx, row: StreamRow) => Promise<boolean>,
): Promise<boolean> {
  return w.sql.begin(async (tx) => {
    const row = await lockStreamById(tx, id);
    return row ? change(tx, row) : false;
  }) as Promise<boolean>;
}

/** A publisher is admitted at `at` (the first one takes the stream live), as admission does. */
export const join = (w: World, id: string, at: Date): Promise<boolean> =>
  withStream(w, id, async (tx, row) => {
    if (row.status === 'pending') await transitions.goLive(tx, row, at);
    else if (row.status !== 'live') return false;
    await publisherJoined(tx, id, at);
    return true;
  });

/** The publisher left at `at` (publish_done). */
export const leave = (w: World, id: string, at: Date): Promise<boolean> =>
  withStream(w, id, async (tx, row) => {
    if (row.status !== 'live') return false;
    await publisherGone(tx, id, at);
    return true;
  });

export const end = (w: World, id: string, at: Date): Promise<boolean> =>
  withStream(w, id, async (tx, row) => {
    if (row.status !== 'live') return false;
    await transitions.end(tx, row, 'deleted', at);
    return true;
  });

export const recordingReady = (w: World, id: string, at: Date, bytes: number): Promise<boolean> =>
  withStream(w, id, async (tx, row) => {
    if (row.recording_status !== 'processing') return false;
    await transitions.recordingReady(tx, row, at, { bytes, durationSeconds: 1 });
    return true;
  });

export const recordingDeleted = (w: World, id: string, at: Date): Promise<boolean> =>
  withStream(w, id, async (tx, row) => {
    if (row.recording_status !== 'ready') return false;
    await transitions.recordingDeleted(tx, row, at, null);
    return true;
  });

/** What the CDN log reader does: adds bytes to a stream's minute (possibly one already charged). */
export async function deliver(sql: Sql, streamId: string, minute: Date, bytes: bigint): Promise<void> {
  await sql`
    insert into delivery_minutes (stream_id, minute, bytes) values (${streamId}, ${minute}, ${bytes.toString()})
    on conflict (stream_id, minute) do update set bytes = delivery_minutes.bytes + excluded.bytes`;
}

// ---- exact money, independent of src/core/money.ts (test/helpers/usd.ts) ----

export const itemPrice = (rates: BillingRates, item: Item, quantity: bigint): bigint =>
  priceMicros(rates[ITEM_UNITS[item].rate], quantity, ITEM_UNITS[item].divisor);

/** What each item of a stream used up to `now`, from the facts the pipeline wrote (sessions, bytes, the recording). */
export async function usedQuantities(
  sql: Sql,
  streamId: string,
  now: Date,
): Promise<{ ingest: bigint; delivery: bigint; storage: bigint }> {
  const sessions = await sql<{ s: number; e: number | null }[]>`
    select (extract(epoch from started_at) * 1000)::float8 as s, (extract(epoch from ended_at) * 1000)::float8 as e
    from publish_sessions where stream_id = ${streamId}`;
  let ms = 0;
  for (const p of sessions) ms += Math.max(0, Math.min(p.e ?? Infinity, now.getTime()) - p.s);
  const [d] = await sql<
    { bytes: string }[]
  >`select coalesce(sum(bytes), 0)::text as bytes from delivery_minutes where stream_id = ${streamId}`;
  const [r] = await sql<{ bytes: string | null; ready: number | null; deleted: number | null }[]>`
    select recording_bytes::text as bytes, (extract(epoch from recording_ready_at) * 1000)::float8 as ready,
      (extract(epoch from recording_deleted_at) * 1000)::float8 as deleted
    from streams where id = ${streamId}`;
  const stored =
    r?.ready == null
      ? 0n
      : BigInt(r.bytes ?? '0') *
        BigInt(Math.max(0, Math.floor((Math.min(r.deleted ?? Infinity, now.getTime()) - r.ready) / 1000)));
  return { ingest: BigInt(Math.floor(ms / 1000)), delivery: BigInt(d?.bytes ?? '0'), storage: stored };
}

export interface LedgerRow {
  stream_id: string;
  item: Item;
  period_start: Date;
  quantity: string;
  amount_usd: string;
}

export async function ledger(sql: Sql, accountId: string): Promise<LedgerRow[]> {
  return sql<LedgerRow[]>`
    select stream_id, item, period_start, quantity::text, amount_usd::text from charges
    where account_id = ${accountId} order by stream_id, item, period_start`;
}

/** Σ quantity and Σ amount (micro-dollars) of each item of a stream in the ledger; absent items are zero. */
export async function chargedItems(
  sql: Sql,
  streamId: string,
): Promise<(item: Item) => { quantity: bigint; micros: bigint }> {
  const rows = await sql<{ item: Item; q: string; a: string }[]>`
    select item, sum(quantity)::text as q, sum(amount_usd)::text as a from charges where stream_id = ${streamId} group by item`;
  return (item) => {
    const row = rows.find((r) => r.item === item);
    return { quantity: BigInt(row?.q ?? '0'), micros: micros(row?.a ?? '0') };
  };
}
