import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';
import { ITEMS } from './items.js';

/** USD as a decimal string: at least two decimals, at most six (the ledger's precision). */
const Money = Type.String({ pattern: '^-?[0-9]+\\.[0-9]{2,6}$', examples: ['0.00'] });

export const Cost = Type.Object({
  total_usd: Money,
  delivery_bytes: Type.Integer({ description: 'Bytes delivered, counted up to `delivery_counted_until`' }),
  delivery_usd: Money,
  delivery_counted_until: Nullable(Timestamp),
  ingest_seconds: Type.Integer({ description: 'Seconds of publishing' }),
  ingest_usd: Money,
  storage_gb_hours: Type.Number(),
  storage_usd: Money,
});
export type Cost = Static<typeof Cost>;

const Rates = Type.Object(
  {
    abr_basic_per_minute: Type.String({ description: 'USD per minute of publishing with profile `abr_basic`' }),
    passthrough_per_minute: Type.String({ description: 'USD per minute of publishing with profile `passthrough`' }),
    delivery_per_gb: Type.String({ description: 'USD per GB (10^9 bytes) delivered, recording downloads included' }),
    storage_per_gb_month: Type.String({ description: 'USD per GB stored for a month (730 hours)' }),
  },
  { additionalProperties: false },
);

const UsageItem = Type.Object(
  {
    item: StringEnum(ITEMS),
    quantity: Type.Number({ description: 'Seconds (abr_basic, passthrough), bytes (delivery) or GB-hours (storage)' }),
    unit: StringEnum(['second', 'byte', 'gb_hour'] as const),
    amount_usd: Money,
  },
  { additionalProperties: false },
);

const UsageDay = Type.Object(
  {
    date: Type.String({ description: 'UTC day, YYYY-MM-DD', examples: ['2026-11-24'] }),
    total_usd: Money,
    items: Type.Array(UsageItem, { description: 'Every item, in the order of `rates`, zero when unused' }),
    watch_minutes: Type.Integer({ description: "Minutes watched of the account's streams that day" }),
    credit_usd: Money,
    balance_usd: { ...Money, description: 'Balance at the end of the day: the previous day’s plus credit minus total' },
  },
  { additionalProperties: false },
);
export type UsageDay = Static<typeof UsageDay>;

export const Usage = Type.Object(
  {
    object: Type.Literal('usage'),
    billing_mode: StringEnum(['prepaid', 'postpaid'] as const),
    credit_usd: { ...Money, description: 'All credit added' },
    charged_usd: { ...Money, description: 'Everything charged so far' },
    balance_usd: { ...Money, description: 'Credit minus everything charged so far' },
    available_usd: {
      ...Money,
      description: 'Balance minus used-but-not-yet-charged; prepaid live streams end when it reaches zero',
    },
    balance_depleted_at: Nullable(Timestamp),
    recordings_delete_at: Nullable({ ...Timestamp, description: 'Prepaid: 7 days after the balance reached zero' }),
    ingest_hours_used: Type.Number({ description: 'Hours published this UTC month' }),
    ingest_hours_limit: Nullable(Type.Number({ description: 'Monthly cap; null: no cap' })),
    rates: Rates,
    days: Type.Array(UsageDay, { description: 'One entry per UTC day of the window, oldest first, today last' }),
  },
  { $id: 'Usage', additionalProperties: false },
);
export type Usage = Static<typeof Usage>;

/** `data` of the credit and balance warnings (docs/decisions.md, Billing). */
export const BalanceEventData = Type.Object(
  {
    object: Type.Literal('balance'),
    account_id: Type.String({ pattern: '^acc_[a-z0-9]{20}$', examples: ['acc_2m9q7x1c4v6b0n5z8f3k'] }),
    billing_mode: StringEnum(['prepaid', 'postpaid'] as const),
    balance_usd: { ...Money, description: 'Credit minus everything charged so far' },
    available_usd: { ...Money, description: 'Balance minus used-but-not-yet-charged: what crossed the threshold' },
    low_credit_usd: { ...Money, description: 'The warning threshold (`billing.low_credit_usd`)', examples: ['5.00'] },
    balance_depleted_at: Nullable({ ...Timestamp, description: 'Since when the balance is at or below zero' }),
  },
  {
    $id: 'BalanceEventData',
    additionalProperties: false,
    description: "The account's money when it crossed the threshold",
  },
);
export type BalanceEventData = Static<typeof BalanceEventData>;

export const DEFAULT_USAGE_DAYS = 30;

export const UsageQuery = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 90,
        default: DEFAULT_USAGE_DAYS,
        description: 'UTC days, today included (1-90, default 30)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UsageQuery = Static<typeof UsageQuery>;
