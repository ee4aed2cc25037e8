/**
 * Exact USD for assertions, written apart from the code under test: micro-dollars as bigint,
 * never a JavaScript float.
 */
const DECIMAL = /^(-?)(\d+)(?:\.(\d{1,6}))?$/;

export function micros(usd: string): bigint {
  const m = DECIMAL.exec(usd);
  if (!m) throw new Error(`not an amount of USD with at most 6 decimals: ${usd}`);
  const n = BigInt(m[2] as string) * 1_000_000n + BigInt((m[3] ?? '').padEnd(6, '0'));
  return m[1] ? -n : n;
}

/** The API's rendering: at least two decimals, no trailing zeros beyond them ("0.0005", "12.50"). */
export function usd(micro: bigint): string {
  const abs = (micro < 0n ? -micro : micro).toString().padStart(7, '0');
  const fraction = abs.slice(-6).replace(/0+$/, '').padEnd(2, '0');
  return `${micro < 0n ? '-' : ''}${abs.slice(0, -6)}.${fraction}`;
}

export const sumUsd = (amounts: string[]): string => usd(amounts.reduce((sum, a) => sum + micros(a), 0n));

/** round(rate x quantity / divisor, 6) in micro-dollars, half away from zero as PostgreSQL rounds numeric. */
export function priceMicros(rate: string, quantity: bigint, divisor: bigint): bigint {
  if (quantity < 0n) throw new Error('negative quantity');
  const [whole, fraction = ''] = rate.split('.');
  const scale = 10n ** BigInt(fraction.length);
  const num = BigInt(`${whole}${fraction}`) * quantity * 1_000_000n;
  const den = scale * divisor;
  return (2n * num + den) / (2n * den);
}

/** The same as the API renders it. */
export const price = (quantity: number | bigint, rate: string, divisor: bigint): string =>
  usd(priceMicros(rate, BigInt(quantity), divisor));

/** Ingest: USD per minute, charged per second. */
export const ingestPrice = (seconds: number | bigint, perMinute: string): string => price(seconds, perMinute, 60n);
