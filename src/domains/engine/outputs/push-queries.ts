import type { Db, Sql } from '../../../platform/db/connect.js';
import { appendEvent } from '../../ledger/events/outbox.js';
import { outputEventData, type OutputEventType } from './push-events.js';

/**
 * What the pushing side reads and writes of `stream_outputs`: the rows of this node's live streams
 * (one query per tick for all of them) and the status of each push. The API writes the rest.
 */

export type OutputStatus = 'idle' | 'connecting' | 'active' | 'errored';

export interface PushRow {
  id: string;
  stream_id: string;
  account_id: string;
  name: string | null;
  url: string;
  stream_key: string;
  enabled: boolean;
  status: OutputStatus;
}

/** Every output of these streams, in the order they were created. */
export async function outputsOf(sql: Sql, streamIds: string[]): Promise<PushRow[]> {
  if (!streamIds.length) return [];
  return sql<PushRow[]>`
    select id, stream_id, account_id, name, url, stream_key, enabled, status
    from stream_outputs where stream_id = any(${streamIds}) order by stream_id, seq`;
}

/** A status change of one push, and the event it makes (if any), in one transaction. */
export interface StatusWrite {
  status: OutputStatus;
  lastError: string | null;
  /** Set when the push became active; left as is otherwise. */
  connectedAt: Date | null;
  /** Bytes sent since the last write that succeeded (added: the column only grows). */
  bytesDelta: number;
  event: OutputEventType | null;
  at: Date;
}

/**
 * Writes a push's status; false when the row is gone (deleted meanwhile). The event is appended
 * in the same transaction, so it exists exactly when the status does; a deleted output's
 * `output.disconnected` is still written, from what the push knew of it.
 */
export async function writeStatus(sql: Sql, row: PushRow, write: StatusWrite): Promise<boolean> {
  return sql.begin(async (tx) => {
    const updated = await tx<{ id: string }[]>`
      update stream_outputs set
        status = ${write.status},
        last_error = ${write.lastError},
        connected_at = coalesce(${write.connectedAt}, connected_at),
        bytes_sent = bytes_sent + ${write.bytesDelta},
        updated_at = ${write.at}
      where id = ${row.id} returning id`;
    if (write.event) await appendOutputEvent(tx, row, write);
    return updated.length > 0;
  });
}

/** Only the byte count (every few seconds while pushing). */
export async function addBytes(sql: Sql, outputId: string, delta: number): Promise<void> {
  if (delta <= 0) return;
  await sql`update stream_outputs set bytes_sent = bytes_sent + ${delta} where id = ${outputId}`;
}

async function appendOutputEvent(tx: Db, row: PushRow, write: StatusWrite): Promise<void> {
  await appendEvent(tx, {
    type: write.event as OutputEventType,
    accountId: row.account_id,
    streamId: row.stream_id,
    at: write.at,
    data: outputEventData(row, write),
  });
}
