import type postgres from 'postgres';
import type { Db } from './connect.js';

/** A query written with `db\`...\`` and not yet run, to be placed inside another statement. */
export type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * A one-row query as one json value (null without a row), so that a read can gather several
 * domains' figures in one statement (one round trip) without their column names colliding.
 */
export const oneRowJson = (db: Db, query: Fragment): Fragment => db`(select to_json(r) from (${query}) r)`;

/**
 * A row read back from json: the listed timestamp columns become Dates again (json carries them
 * as ISO text; `new Date` reads it as postgres.js reads a timestamptz, to the millisecond).
 * Numbers, booleans and text come back as postgres.js would give them (int8 as numbers here too).
 */
export function rowFromJson<T>(json: unknown, dates: readonly (keyof T & string)[]): T {
  const row = { ...(json as Record<string, unknown>) };
  for (const key of dates) {
    const value = row[key];
    if (typeof value === 'string') row[key] = new Date(value);
  }
  return row as T;
}
