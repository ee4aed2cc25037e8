import type { Db } from '../db/connect.js';
import { STREAM_ID, type EndReason, type PlayerSettings, type Profile, type RecordingStatus, type StreamStatus } from './schemas.js';

export interface StreamRow {
  seq: number;
  id: string;
  account_id: string;
  name: string | null;
  status: StreamStatus;
  profile: Profile;
  record: boolean;
  replay: boolean;
  max_resolution: 480 | 720 | 1080;
  max_duration_seconds: number;
  recording_retention_days: number | null;
  metadata: Record<string, unknown> | null;
  player: PlayerSettings;
  key_hash: Buffer;
  created_at: Date;
  reservation_expires_at: Date;
  went_live_at: Date | null;
  ended_at: Date | null;
  end_reason: EndReason | null;
  recording_status: RecordingStatus | null;
}

export type NewStream = Omit<StreamRow, 'seq' | 'went_live_at' | 'ended_at' | 'end_reason' | 'recording_status'>;

export async function insertStream(db: Db, stream: NewStream): Promise<StreamRow> {
  const [row] = await db<StreamRow[]>`
    insert into streams ${db({ ...stream, metadata: jsonOrNull(db, stream.metadata), player: db.json(stream.player) })}
    returning *`;
  return row as StreamRow;
}

/** Path ids are any text; one that cannot be a stream id names none (and never reaches SQL: U+0000). */
export async function findStream(db: Db, accountId: string, id: string): Promise<StreamRow | null> {
  if (!STREAM_ID.test(id)) return null;
  const [row] = await db<StreamRow[]>`select * from streams where id = ${id} and account_id = ${accountId}`;
  return row ?? null;
}

export async function lockStream(db: Db, accountId: string, id: string): Promise<StreamRow | null> {
  if (!STREAM_ID.test(id)) return null;
  const [row] = await db<StreamRow[]>`select * from streams where id = ${id} and account_id = ${accountId} for update`;
  return row ?? null;
}

/** Newest first by insertion order, so pages neither skip nor repeat while streams are created. */
export async function listStreams(
  db: Db,
  accountId: string,
  opts: { limit: number; afterSeq: number | null; status: StreamStatus | null },
): Promise<StreamRow[]> {
  return db<StreamRow[]>`
    select * from streams
    where account_id = ${accountId}
      ${opts.status ? db`and status = ${opts.status}` : db``}
      ${opts.afterSeq !== null ? db`and seq < ${opts.afterSeq}` : db``}
    order by seq desc
    limit ${opts.limit}`;
}

export async function findSeq(db: Db, accountId: string, id: string): Promise<number | null> {
  const [row] = await db<{ seq: number }[]>`select seq from streams where id = ${id} and account_id = ${accountId}`;
  return row?.seq ?? null;
}

export async function countPending(db: Db, accountId: string): Promise<number> {
  const [row] = await db<{ n: number }[]>`
    select count(*)::int as n from streams where account_id = ${accountId} and status = 'pending'`;
  return row?.n ?? 0;
}

export async function creationsSince(db: Db, accountId: string, since: Date): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db<{ count: number; oldest: Date | null }[]>`
    select count(*)::int as count, min(created_at) as oldest
    from streams where account_id = ${accountId} and created_at > ${since}`;
  return row ?? { count: 0, oldest: null };
}

export type StreamChanges = Partial<
  Pick<StreamRow, 'name' | 'metadata' | 'player' | 'status' | 'key_hash' | 'went_live_at' | 'ended_at' | 'end_reason' | 'recording_status'>
>;

export async function updateStream(db: Db, id: string, changes: StreamChanges): Promise<StreamRow> {
  const values: Record<string, unknown> = { ...changes };
  if ('metadata' in changes) values.metadata = jsonOrNull(db, changes.metadata ?? null);
  if (changes.player) values.player = db.json(changes.player);
  const [row] = await db<StreamRow[]>`update streams set ${db(values)} where id = ${id} returning *`;
  return row as StreamRow;
}

/** Pending streams whose reservation ran out, locked for this run; other nodes skip them. */
export async function lockExpiredReservations(db: Db, now: Date, batch: number): Promise<StreamRow[]> {
  return db<StreamRow[]>`
    select * from streams where status = 'pending' and reservation_expires_at <= ${now}
    order by reservation_expires_at limit ${batch} for update skip locked`;
}

const jsonOrNull = (db: Db, value: Record<string, unknown> | null) => (value === null ? null : db.json(value as never));
