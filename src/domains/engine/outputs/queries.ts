import type { Db } from '../../../platform/db/connect.js';
import { OUTPUT_ID, type OutputStatus } from './schemas.js';

export interface OutputRow {
  seq: number;
  id: string;
  stream_id: string;
  account_id: string;
  name: string | null;
  url: string;
  /** '' for an srt output without a key (the column is not null). */
  stream_key: string;
  enabled: boolean;
  status: OutputStatus;
  last_error: string | null;
  connected_at: Date | null;
  bytes_sent: number;
  created_at: Date;
  updated_at: Date;
}

export type NewOutput = Pick<
  OutputRow,
  'id' | 'stream_id' | 'account_id' | 'name' | 'url' | 'stream_key' | 'enabled' | 'created_at' | 'updated_at'
>;
export type OutputChanges = Partial<
  Pick<OutputRow, 'name' | 'url' | 'stream_key' | 'enabled' | 'status' | 'last_error' | 'connected_at' | 'updated_at'>
>;

export async function countOutputs(db: Db, streamId: string): Promise<number> {
  const [row] = await db<{ n: number }[]>`select count(*)::int as n from stream_outputs where stream_id = ${streamId}`;
  return row?.n ?? 0;
}

export async function insertOutput(db: Db, output: NewOutput): Promise<OutputRow> {
  const [row] = await db<OutputRow[]>`insert into stream_outputs ${db({ ...output })} returning *`;
  return row as OutputRow;
}

export async function listOutputs(db: Db, streamId: string): Promise<OutputRow[]> {
  return db<OutputRow[]>`select * from stream_outputs where stream_id = ${streamId} order by seq`;
}

/** Path ids are any text; one that cannot be an output id names none. */
export async function findOutput(db: Db, streamId: string, id: string): Promise<OutputRow | null> {
  if (!OUTPUT_ID.test(id)) return null;
  const [row] = await db<OutputRow[]>`select * from stream_outputs where id = ${id} and stream_id = ${streamId}`;
  return row ?? null;
}

export async function updateOutput(db: Db, id: string, changes: OutputChanges): Promise<OutputRow> {
  const [row] = await db<OutputRow[]>`update stream_outputs set ${db({ ...changes })} where id = ${id} returning *`;
  return row as OutputRow;
}

export async function deleteOutput(db: Db, streamId: string, id: string): Promise<boolean> {
  if (!OUTPUT_ID.test(id)) return false;
  const rows = await db`delete from stream_outputs where id = ${id} and stream_id = ${streamId} returning id`;
  return rows.length > 0;
}
