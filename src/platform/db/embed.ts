import type postgres from 'postgres';
import type { Db } from './connect.js';

/** A query written with `db\`...\`` and not yet run, to be placed inside another statement. */
export type Fragment = postgres.PendingQuery<postgres.Row[]>;

/**
 * SQL text composed once, at start, from several domains' pieces (functions returning text, whose
 * arguments are expressions such as `this_stream.id` or `$3`), run as a prepared statement with
 * positional parameters. postgres.js builds a tagged statement from its fragments on every run:
 * for a stream's read that building was over half of the API's CPU per read (issue 16). Pieces
 * hold no values: every value is a parameter.
 */
export function runComposed<T>(db: Db, text: string, params: readonly unknown[]): Promise<T[]> {
  return db.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }) as unknown as Promise<T[]>;
}

/**
 * A one-row query's text as one json value (null without a row), so that a read can gather
 * several domains' figures in one statement (one round trip) without their column names colliding.
 */
export const oneRowJsonSql = (query: string): string => `(select to_json(r) from (${query}) r)`;

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
