import type { Config } from '../../../config/config.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import { addUsd, compareUsd, formatUsd, subtractUsd } from '../../../core/money.js';
import { addSeconds, iso } from '../../../core/time.js';
import type { Db, Sql } from '../../../platform/db/connect.js';
import { rowFromJson, runComposed } from '../../../platform/db/embed.js';
import type { Account } from '../accounts/model.js';
import { COUNTED_UNTIL_SQL } from '../cdnlog/queries.js';
import { gbHours, ITEM_UNITS, ITEMS, type Item } from './items.js';
import * as q from './queries.js';
import type { Cost, Usage, UsageDay } from './schemas.js';

export const MIN_CREDIT_USD = '1.00';

/** The cost of a stream that never went live: nothing published, delivered or stored, nothing to query. */
export const NOTHING_USED: Readonly<Cost> = Object.freeze({
  total_usd: '0.00',
  delivery_bytes: 0,
  delivery_usd: '0.00',
  delivery_counted_until: null,
  ingest_seconds: 0,
  ingest_usd: '0.00',
  storage_gb_hours: 0,
  storage_usd: '0.00',
});
const DAY_MS = 86_400_000;

export interface BillingDeps {
  sql: Sql;
  clock: Clock;
  config: Config;
  /** Minutes watched per UTC day of an account's streams, from the first day to the last, both included (the viewers domain). */
  watchMinutesByDay: (
    db: Db,
    accountId: string,
    firstDay: Date,
    lastDay: Date,
  ) => Promise<{ day: string; watch_minutes: number }[]>;
}

/** When a prepaid account's recordings are deleted once its balance reached zero at `depletedAt`. */
export const zeroBalanceDeadline = (billing: Config['billing'], depletedAt: Date): Date =>
  addSeconds(depletedAt, billing.zero_balance_days * 86_400);

const startOfUtcDay = (t: Date): Date => new Date(Math.floor(t.getTime() / DAY_MS) * DAY_MS);
const startOfUtcMonth = (t: Date): Date => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
const nextUtcMonth = (t: Date): Date => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 1));
const sumUsd = (amounts: string[]): string => formatUsd(amounts.reduce(addUsd, '0'));

const costSql = (streamId: string, at: string, rates: string): string =>
  `json_build_object('items', ${q.streamItemsJsonSql(streamId, at, rates)}, 'counted_until', (${COUNTED_UNTIL_SQL}))`;

const COST_SQL = `select ${costSql('$1::text', '$2', '$3')} as cost`;

/** Money as accounts and API clients see it: a stream's cost, an account's usage, and the checks that use them. */
export class BillingService {
  constructor(private readonly deps: BillingDeps) {}

  get rates(): Config['billing']['rates'] {
    return this.deps.config.billing.rates;
  }

  /**
   * What the spec's Cost of one stream is made of, as one json value: text that a stream's read
   * composes its statement with (one round trip, issue 16; `runComposed`), handing what it read to
   * `costFrom`. `streamId` is an expression (the read's own row's id); `at` and `rates` name the
   * statement's parameters that `costParams` gives, in that order.
   */
  costSql(streamId: string, at: string, rates: string): string {
    return costSql(streamId, at, rates);
  }

  /** The values of `costSql`'s parameters for a read now: the time, then the rates. */
  costParams(): [Date, string] {
    return [this.deps.clock.now(), q.ratesJson(this.rates)];
  }

  /** The spec's Cost of one stream: charged and used-but-not-charged, live while it streams. */
  async cost(streamId: string): Promise<Cost> {
    const [row] = await runComposed<{ cost: unknown }>(this.deps.sql, COST_SQL, [streamId, ...this.costParams()]);
    return this.costFrom(row?.cost);
  }

  /** The spec's Cost from `costSql`'s value. */
  costFrom(read: unknown): Cost {
    const { items, counted_until: counted } = rowFromJson<{ items: q.ItemMoney[]; counted_until: Date | null }>(read, [
      'counted_until',
    ]);
    const of = (item: Item) => items.find((i) => i.item === item) ?? { quantity: '0', amount_usd: '0' };
    const ingest = items.find((i) => i.item === 'abr_basic' || i.item === 'passthrough') ?? {
      quantity: '0',
      amount_usd: '0',
    };
    return {
      total_usd: sumUsd(items.map((i) => i.amount_usd)),
      delivery_bytes: Number(of('delivery').quantity),
      delivery_usd: formatUsd(of('delivery').amount_usd),
      delivery_counted_until: iso(counted),
      ingest_seconds: Number(ingest.quantity),
      ingest_usd: formatUsd(ingest.amount_usd),
      storage_gb_hours: gbHours(of('storage').quantity),
      storage_usd: formatUsd(of('storage').amount_usd),
    };
  }

  /** Balance and available amount now (in the caller's transaction when given). */
  async money(db: Db, accountId: string): Promise<q.AccountMoney> {
    const [row] = await q.accountMoney(db, [accountId], this.rates, this.deps.clock.now());
    if (!row) throw new Error(`no account ${accountId}`);
    return row;
  }

  /** Balance and available amount of several accounts now. */
  moneyOf(accountIds: string[]): Promise<q.AccountMoney[]> {
    return q.accountMoney(this.deps.sql, accountIds, this.rates, this.deps.clock.now());
  }

  /** Whole hours are not required: the limit is a number of hours, fractions included. */
  async ingestHoursThisMonth(db: Db, accountId: string): Promise<number> {
    const now = this.deps.clock.now();
    return (await q.publishedSeconds(db, accountId, startOfUtcMonth(now), now)) / 3600;
  }

  /**
   * Refuses a new stream for money or ingest hours (spec: 402 insufficient_credit below 1.00 USD
   * available; 429 limit_ingest_hours). Call under the account's row lock.
   */
  async checkCreate(tx: Db, account: Account): Promise<void> {
    if (account.billing_mode === 'prepaid') {
      const { available_usd } = await this.money(tx, account.id);
      if (compareUsd(available_usd, MIN_CREDIT_USD) < 0) {
        throw new ApiError(
          'insufficient_credit',
          `Available credit is ${formatUsd(available_usd)} USD, below the ${MIN_CREDIT_USD} USD a new stream needs; add credit to create streams.`,
          {
            available_usd: formatUsd(available_usd),
            required_usd: MIN_CREDIT_USD,
          },
        );
      }
    }
    await this.checkIngestHours(tx, account);
  }

  /** 429 limit_ingest_hours once this UTC month's publishing reached the account's cap. */
  async checkIngestHours(db: Db, account: Account): Promise<void> {
    const spent = await this.ingestHoursSpent(db, account);
    if (!spent) return;
    const { used, limit } = spent;
    const resets = nextUtcMonth(this.deps.clock.now());
    throw new ApiError(
      'limit_ingest_hours',
      `This account published ${round2(used)} of its ${limit} ingest hours this month; publishing resumes on ${resets.toISOString().slice(0, 10)} (UTC), or ask the operator to make the account trusted.`,
      { limit_hours: limit, used_hours: round2(used), resets_at: resets.toISOString() },
    );
  }

  /** This month's hours and the cap once the cap is reached; null while hours are left (or there is no cap). */
  async ingestHoursSpent(db: Db, account: Account): Promise<{ used: number; limit: number } | null> {
    const limit = this.hoursLimit(account);
    if (limit === null) return null;
    const used = await this.ingestHoursThisMonth(db, account.id);
    return used >= limit ? { used, limit } : null;
  }

  hoursLimit(account: Account): number | null {
    const limits = account.trusted ? this.deps.config.limits.trusted : this.deps.config.limits.new;
    return limits.ingest_hours_per_month;
  }

  /** The spec's Usage over the last `days` UTC days (today included), oldest first. */
  async usage(account: Account, days: number): Promise<Usage> {
    const { sql, clock, config } = this.deps;
    const now = clock.now();
    const to = new Date(startOfUtcDay(now).getTime() + DAY_MS);
    const from = new Date(to.getTime() - days * DAY_MS);
    const [money, charges, credits, watched, hours] = await Promise.all([
      this.money(sql, account.id),
      q.chargesByDay(sql, account.id, from, to),
      q.creditsByDay(sql, account.id, from, to),
      this.deps.watchMinutesByDay(sql, account.id, from, new Date(to.getTime() - DAY_MS)),
      this.ingestHoursThisMonth(sql, account.id),
    ]);
    let balance = credits.opening_usd;
    const out: UsageDay[] = [];
    for (let t = from.getTime(); t < to.getTime(); t += DAY_MS) {
      const day = new Date(t).toISOString().slice(0, 10);
      const items = ITEMS.map((item) => {
        const row = charges.find((c) => c.day === day && c.item === item);
        const quantity = row?.quantity ?? '0';
        return {
          item,
          quantity: item === 'storage' ? gbHours(quantity) : Number(quantity),
          unit: ITEM_UNITS[item].unit,
          amount_usd: formatUsd(row?.amount_usd ?? '0'),
        };
      });
      const charged = charges.filter((c) => c.day === day).reduce((sum, c) => addUsd(sum, c.amount_usd), '0');
      const credit = credits.days.find((c) => c.day === day)?.amount_usd ?? '0';
      balance = subtractUsd(addUsd(balance, credit), charged);
      out.push({
        date: day,
        total_usd: formatUsd(charged),
        items,
        watch_minutes: watched.find((w) => w.day === day)?.watch_minutes ?? 0,
        credit_usd: formatUsd(credit),
        balance_usd: formatUsd(balance),
      });
    }
    const depleted = account.billing_mode === 'prepaid' ? money.balance_depleted_at : null;
    return {
      object: 'usage',
      billing_mode: money.billing_mode,
      credit_usd: formatUsd(money.credit_usd),
      charged_usd: formatUsd(money.charged_usd),
      balance_usd: formatUsd(money.balance_usd),
      available_usd: formatUsd(money.available_usd),
      balance_depleted_at: iso(money.balance_depleted_at),
      recordings_delete_at: depleted ? zeroBalanceDeadline(config.billing, depleted).toISOString() : null,
      ingest_hours_used: round2(hours),
      ingest_hours_limit: this.hoursLimit(account),
      rates: { ...this.rates },
      days: out,
    };
  }
}

const round2 = (n: number): number => Math.round(n * 100) / 100;
