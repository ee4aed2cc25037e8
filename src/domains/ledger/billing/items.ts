import type { BillingRates } from '../../../config/schema.js';

/** What is charged; a stream's ingest item is its profile. */
export const ITEMS = ['abr_basic', 'passthrough', 'delivery', 'storage'] as const;
export type Item = (typeof ITEMS)[number];

/** 1 GB = 10^9 bytes; a storage month is 730 hours (docs/decisions.md, Billing). */
export const BYTES_PER_GB = 1_000_000_000n;
export const HOURS_PER_MONTH = 730n;

/**
 * Each item's ledger quantity is a whole number of a small unit (seconds, bytes, byte-seconds):
 * amount = rate x quantity / divisor, computed by PostgreSQL in numeric, rounded to 6 decimals.
 */
export const ITEM_UNITS: Record<
  Item,
  { rate: keyof BillingRates; divisor: bigint; unit: 'second' | 'byte' | 'gb_hour' }
> = {
  abr_basic: { rate: 'abr_basic_per_minute', divisor: 60n, unit: 'second' },
  passthrough: { rate: 'passthrough_per_minute', divisor: 60n, unit: 'second' },
  delivery: { rate: 'delivery_per_gb', divisor: BYTES_PER_GB, unit: 'byte' },
  storage: { rate: 'storage_per_gb_month', divisor: BYTES_PER_GB * HOURS_PER_MONTH * 3600n, unit: 'gb_hour' },
};

/** byte-seconds → GB-hours, for presentation only (a quantity, not money). */
export function gbHours(byteSeconds: string | bigint): number {
  const micro = (BigInt(byteSeconds) * 1_000_000n) / (BYTES_PER_GB * 3600n);
  return Number(micro) / 1_000_000;
}
