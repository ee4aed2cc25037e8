/**
 * What metering charges, computed from what happened (publish sessions, a recording's life) as
 * whole units per closed period. Pure: no clock, no database. Each period's quantity is the
 * floor of the running total at its end minus the floor at its start, so the periods of a stream
 * add up to the floor of its total whatever the periods are.
 */
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

export const floorTo = (t: number, step: number): number => Math.floor(t / step) * step;
export const ceilTo = (t: number, step: number): number => Math.ceil(t / step) * step;

export interface Interval {
  start: number;
  /** null: still going. */
  end: number | null;
}

export interface PeriodQuantity {
  periodStart: number;
  quantity: bigint;
}

/** Milliseconds of `intervals` before `t`. */
export function coveredBefore(intervals: readonly Interval[], t: number): number {
  let ms = 0;
  for (const i of intervals) ms += Math.max(0, Math.min(i.end ?? Infinity, t) - i.start);
  return ms;
}

/**
 * Quantities of the periods [from, to) in `step`s: `unitsBefore(t)` is the running total (whole
 * units) at t. Periods with nothing in them are left out.
 */
export function periodQuantities(
  from: number,
  to: number,
  step: number,
  unitsBefore: (t: number) => bigint,
): PeriodQuantity[] {
  const out: PeriodQuantity[] = [];
  let previous = unitsBefore(from);
  for (let t = from; t < to; t += step) {
    const next = unitsBefore(t + step);
    if (next > previous) out.push({ periodStart: t, quantity: next - previous });
    previous = next;
  }
  return out;
}

/** Whole seconds published before t. */
export const publishedSecondsBefore =
  (sessions: readonly Interval[]) =>
  (t: number): bigint =>
    BigInt(Math.floor(coveredBefore(sessions, t) / 1000));

/** Byte-seconds a recording of `bytes` occupied before t (whole seconds since it was ready). */
export const storedByteSecondsBefore =
  (bytes: number, life: Interval) =>
  (t: number): bigint =>
    BigInt(bytes) * BigInt(Math.floor(coveredBefore([life], t) / 1000));
