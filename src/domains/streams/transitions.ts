import { appendEvent, type EventType } from '../ledger/events/outbox.js';
import type { Tx } from '../../platform/db/connect.js';
import {
  publisherGone,
  updateStream,
  type EndReason,
  type RecordingStatus,
  type StreamChanges,
  type StreamRow,
  type StreamStatus,
} from './model.js';
import { eventData } from './present.js';

/**
 * Every status change of a stream, each writing its event in the caller's transaction.
 * The caller holds the row lock (`lockStream` / `lockExpiredReservations`).
 */

/** The `data` of these events, which the webhooks reference documents: an API shape, passed through this door. */
export type { StreamEventData } from './schemas.js';

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

/**
 * No node can take a reservation whose node died (docs/decisions.md, "One broadcast across a
 * node's death"): it ends like one that was never published to, with the spec's reason.
 */
export const provisionFailed = (tx: Tx, stream: StreamRow, at: Date): Promise<StreamRow> =>
  move(tx, stream, 'pending', 'stream.expired', at, {
    status: 'expired',
    ended_at: at,
    end_reason: 'provision_failed',
    recording_status: stream.record ? 'none' : 'not_recorded',
  });

export const goLive = (tx: Tx, stream: StreamRow, at: Date): Promise<StreamRow> =>
  move(tx, stream, 'pending', 'stream.live', at, {
    status: 'live',
    went_live_at: at,
    recording_status: stream.record ? 'recording' : 'not_recorded',
  });

export const end = async (tx: Tx, stream: StreamRow, reason: EndReason, at: Date): Promise<StreamRow> => {
  await publisherGone(tx, stream.id, at);
  return move(tx, stream, 'live', 'stream.ended', at, {
    status: 'ended',
    ended_at: at,
    end_reason: reason,
    // A recording the client deleted while live stays deleted; the recordings job cleans up.
    recording_status:
      stream.recording_status === 'deleting' ? 'deleting' : stream.record ? 'processing' : 'not_recorded',
    recording_next_attempt_at: stream.record ? at : null,
  });
};

async function move(
  tx: Tx,
  stream: StreamRow,
  from: StreamStatus,
  type: EventType,
  at: Date,
  changes: StreamChanges,
): Promise<StreamRow> {
  if (stream.status !== from)
    throw new Error(`stream ${stream.id} is ${stream.status}, not ${from}: transition refused`);
  const row = await updateStream(tx, stream.id, changes);
  await appendEvent(tx, { type, accountId: row.account_id, streamId: row.id, at, data: eventData(row) });
  return row;
}

/** Recording changes; the caller holds the stream's row lock. */
export const recordingReady = (
  tx: Tx,
  stream: StreamRow,
  at: Date,
  file: { bytes: number; durationSeconds: number },
): Promise<StreamRow> =>
  moveRecording(tx, stream, ['processing'], 'recording.ready', at, {
    recording_status: 'ready',
    recording_bytes: file.bytes,
    recording_duration_seconds: file.durationSeconds,
    recording_ready_at: at,
    recording_delete_at:
      stream.recording_retention_days === null
        ? null
        : new Date(at.getTime() + stream.recording_retention_days * 86_400_000),
    recording_delete_reason: stream.recording_retention_days === null ? null : 'retention',
    recording_next_attempt_at: null,
    recording_error: null,
  });

export const recordingFailed = (tx: Tx, stream: StreamRow, at: Date, error: string): Promise<StreamRow> =>
  moveRecording(tx, stream, ['processing'], 'recording.failed', at, {
    recording_status: 'failed',
    recording_next_attempt_at: null,
    recording_error: error,
  });

/** Made again on the owner's request: what was streamed was kept when it failed; three new tries. */
export const recordingRetried = (tx: Tx, stream: StreamRow): Promise<StreamRow> =>
  moveRecording(tx, stream, ['failed'], null, new Date(0), {
    recording_status: 'processing',
    recording_attempts: 0,
    recording_next_attempt_at: null,
    recording_error: null,
  });

/** Asked for before the MP4 exists: it is deleted as soon as it would exist. */
export const recordingDeleting = (tx: Tx, stream: StreamRow): Promise<StreamRow> =>
  moveRecording(tx, stream, ['recording', 'processing'], null, new Date(0), { recording_status: 'deleting' });

export const recordingDeleted = (
  tx: Tx,
  stream: StreamRow,
  at: Date,
  reason: 'retention' | 'zero_balance' | null,
): Promise<StreamRow> =>
  moveRecording(tx, stream, ['ready', 'deleting', 'failed', 'legacy'], 'recording.deleted', at, {
    recording_status: 'deleted',
    recording_deleted_at: at,
    recording_delete_reason: reason,
    recording_delete_at: null,
    recording_next_attempt_at: null,
  });

async function moveRecording(
  tx: Tx,
  stream: StreamRow,
  from: RecordingStatus[],
  type: EventType | null,
  at: Date,
  changes: StreamChanges,
): Promise<StreamRow> {
  if (!stream.recording_status || !from.includes(stream.recording_status)) {
    throw new Error(
      `recording of ${stream.id} is ${stream.recording_status}, not ${from.join('/')}: transition refused`,
    );
  }
  const row = await updateStream(tx, stream.id, changes);
  if (type) await appendEvent(tx, { type, accountId: row.account_id, streamId: row.id, at, data: eventData(row) });
  return row;
}
