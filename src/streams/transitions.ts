import { appendEvent, type EventType } from '../events/outbox.js';
import type { Tx } from '../db/connect.js';
import { updateStream, type StreamChanges, type StreamRow } from './queries.js';
import { eventData } from './present.js';
import type { EndReason, StreamStatus } from './schemas.js';

/**
 * Every status change of a stream, each writing its event in the caller's transaction.
 * The caller holds the row lock (`lockStream` / `lockExpiredReservations`).
 */

export const cancel = (tx: Tx, stream: StreamRow, at: Date): Promise<StreamRow> =>
  move(tx, stream, 'pending', 'stream.cancelled', at, {
    status: 'cancelled',
    ended_at: at,
    recording_status: stream.record ? 'none' : 'not_recorded',
  });

/** Timed at the end of the reservation, not when the job noticed. */
export const expire = (tx: Tx, stream: StreamRow): Promise<StreamRow> =>
  move(tx, stream, 'pending', 'stream.expired', stream.reservation_expires_at, {
    status: 'expired',
    ended_at: stream.reservation_expires_at,
    end_reason: 'reservation_ttl',
    recording_status: stream.record ? 'none' : 'not_recorded',
  });

export const goLive = (tx: Tx, stream: StreamRow, at: Date): Promise<StreamRow> =>
  move(tx, stream, 'pending', 'stream.live', at, {
    status: 'live',
    went_live_at: at,
    recording_status: stream.record ? 'recording' : 'not_recorded',
  });

export const end = (tx: Tx, stream: StreamRow, reason: EndReason, at: Date): Promise<StreamRow> =>
  move(tx, stream, 'live', 'stream.ended', at, {
    status: 'ended',
    ended_at: at,
    end_reason: reason,
    recording_status: stream.record ? 'processing' : 'not_recorded',
  });

async function move(tx: Tx, stream: StreamRow, from: StreamStatus, type: EventType, at: Date, changes: StreamChanges): Promise<StreamRow> {
  if (stream.status !== from) throw new Error(`stream ${stream.id} is ${stream.status}, not ${from}: transition refused`);
  const row = await updateStream(tx, stream.id, changes);
  await appendEvent(tx, { type, accountId: row.account_id, streamId: row.id, at, data: eventData(row) });
  return row;
}
