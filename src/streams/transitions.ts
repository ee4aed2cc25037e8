import { appendEvent } from '../events/outbox.js';
import type { Tx } from '../db/connect.js';
import { updateStream, type StreamRow } from './queries.js';
import { eventData } from './present.js';
import type { EndReason } from './schemas.js';

/**
 * Every status change of a stream, each writing its event in the caller's transaction.
 * The caller holds the row lock (`lockStream` / `lockExpiredReservations`).
 */

export async function cancel(tx: Tx, stream: StreamRow, at: Date): Promise<StreamRow> {
  assertStatus(stream, 'pending');
  const row = await updateStream(tx, stream.id, {
    status: 'cancelled',
    ended_at: at,
    recording_status: stream.record ? 'none' : 'not_recorded',
  });
  await appendEvent(tx, { type: 'stream.cancelled', accountId: row.account_id, streamId: row.id, at, data: eventData(row) });
  return row;
}

/** `at` is when the reservation ran out, not when the job noticed. */
export async function expire(tx: Tx, stream: StreamRow): Promise<StreamRow> {
  assertStatus(stream, 'pending');
  const at = stream.reservation_expires_at;
  const row = await updateStream(tx, stream.id, {
    status: 'expired',
    ended_at: at,
    end_reason: 'reservation_ttl',
    recording_status: stream.record ? 'none' : 'not_recorded',
  });
  await appendEvent(tx, { type: 'stream.expired', accountId: row.account_id, streamId: row.id, at, data: eventData(row) });
  return row;
}

export async function goLive(tx: Tx, stream: StreamRow, at: Date): Promise<StreamRow> {
  assertStatus(stream, 'pending');
  const row = await updateStream(tx, stream.id, {
    status: 'live',
    went_live_at: at,
    recording_status: stream.record ? 'recording' : 'not_recorded',
  });
  await appendEvent(tx, { type: 'stream.live', accountId: row.account_id, streamId: row.id, at, data: eventData(row) });
  return row;
}

export async function end(tx: Tx, stream: StreamRow, reason: EndReason, at: Date): Promise<StreamRow> {
  assertStatus(stream, 'live');
  const row = await updateStream(tx, stream.id, {
    status: 'ended',
    ended_at: at,
    end_reason: reason,
    recording_status: stream.record ? 'processing' : 'not_recorded',
  });
  await appendEvent(tx, { type: 'stream.ended', accountId: row.account_id, streamId: row.id, at, data: eventData(row) });
  return row;
}

function assertStatus(stream: StreamRow, expected: StreamRow['status']): void {
  if (stream.status !== expected) {
    throw new Error(`stream ${stream.id} is ${stream.status}, not ${expected}: transition refused`);
  }
}
