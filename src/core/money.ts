/**
 * Money is a decimal string end to end: PostgreSQL `numeric` in, string out. These helpers only
 * reformat strings; they never go through a JavaScript number.
 */
const DECIMAL = /^-?\d+(\.\d+)?$/;

export function isDecimal(value: string): boolean {
  return DECIMAL.test(value);
}

/** "12.500000" -> "12.50", "0.000500" -> "0.0005": at least two decimals, no trailing noise. */
export function formatUsd(value: string): string {
  if (!isDecimal(value)) throw new Error(`not a decimal amount: ${value}`);
  const [whole, fraction = ''] = value.split('.');
  const trimmed = fraction.replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${trimmed}`;
}

const SCALE = 6;
const units = (v: string): bigint => {
  const negative = v.startsWith('-');
  const [whole, fraction = ''] = v.replace('-', '').split('.');
  const n = BigInt(whole ?? '0') * 10n ** BigInt(SCALE) + BigInt(fraction.slice(0, SCALE).padEnd(SCALE, '0'));
  return negative ? -n : n;
};

/** Exact comparison of two decimal strings (up to 6 decimals): -1, 0 or 1. */
export function compareUsd(a: string, b: string): number {
  const d = units(a) - units(b);
  return d === 0n ? 0 : d > 0n ? 1 : -1;
}

/** Exact sum of two decimal strings (up to 6 decimals), as a decimal string with 6 decimals. */
export function addUsd(a: string, b: string): string {
  return fromUnits(units(a) + units(b));
}

/** Exact difference a - b of two decimal strings (up to 6 decimals), with 6 decimals. */
export function subtractUsd(a: string, b: string): string {
  return fromUnits(units(a) - units(b));
}

function fromUnits(sum: bigint): string {
  const abs = (sum < 0n ? -sum : sum).toString().padStart(SCALE + 1, '0');
  return `${sum < 0n ? '-' : ''}${abs.slice(0, -SCALE)}.${abs.slice(-SCALE)}`;
}
