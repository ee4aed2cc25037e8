import type { Db, Sql } from '../../../platform/db/connect.js';
import { addDelivery } from '../../ledger/cdnlog/queries.js';
import { appendEvent } from '../../ledger/events/outbox.js';
import { presentOutput } from './present.js';
import type { OutputRow } from './queries.js';
import type { OutputStatus } from './schemas.js';

/** The events a push makes, once per transition (docs/decisions.md, "Restreaming: pushing"). */
export type OutputEventType = 'output.connected' | 'output.errored' | 'output.disconnected';

/**
 * What the pushing side reads and writes of `stream_outputs`: the rows of this node's live streams
 * (one query per tick for all of them) and the status of each push. The API writes the rest.
 */

export type { OutputStatus };
/** A row as the push knows it (the last read). */
export type PushRow = OutputRow;

/** Every output of these streams, in the order they were created. */
export async function outputsOf(sql: Sql, streamIds: string[]): Promise<PushRow[]> {
  if (!streamIds.length) return [];
  return sql<PushRow[]>`select * from stream_outputs where stream_id = any(${streamIds}) order by stream_id, seq`;
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
 * Writes a push's status; false when the row is gone (deleted meanwhile). The event, with the
 * output as the API shows it (key masked), is appended in the same transaction, so it exists
 * exactly when the status does; a deleted output's `output.disconnected` is still written, from
 * the push's last reading of the row.
 */
export async function writeStatus(sql: Sql, row: PushRow, write: StatusWrite): Promise<boolean> {
  return sql.begin(async (tx) => {
    const [updated] = await tx<OutputRow[]>`
      update stream_outputs set
        status = ${write.status},
        last_error = ${write.lastError},
        connected_at = coalesce(${write.connectedAt}, connected_at),
        bytes_sent = bytes_sent + ${write.bytesDelta},
        updated_at = ${write.at}
      where id = ${row.id} returning *`;
    await billAsDelivery(tx, row.stream_id, write.bytesDelta, write.at);
    if (write.event)
      await appendOutputEvent(
        tx,
        updated ?? { ...row, status: write.status, last_error: write.lastError, updated_at: write.at },
        write,
      );
    return updated !== undefined;
  });
}

/** Only the byte count (every few seconds while pushing). */
export async function addBytes(sql: Sql, row: PushRow, delta: number, at: Date): Promise<void> {
  if (delta <= 0) return;
  await sql.begin(async (tx) => {
    await tx`update stream_outputs set bytes_sent = bytes_sent + ${delta} where id = ${row.id}`;
    await billAsDelivery(tx, row.stream_id, delta, at);
  });
}

/**
 * Pushed bytes are delivery (docs/decisions.md, "Restreaming: billing"): added to the stream's
 * minute of `delivery_minutes` with the count they come with, so metering charges them once at the
 * delivery rate, also for an output deleted since.
 */
async function billAsDelivery(tx: Db, streamId: string, bytes: number, at: Date): Promise<void> {
  if (bytes <= 0) return;
  const minute = new Date(at.getTime() - (at.getTime() % 60_000));
  await addDelivery(tx, [{ stream_id: streamId, minute, bytes }]);
}

async function appendOutputEvent(tx: Db, row: OutputRow, write: StatusWrite): Promise<void> {
  await appendEvent(tx, {
    type: write.event as OutputEventType,
    accountId: row.account_id,
    streamId: row.stream_id,
    at: write.at,
    data: presentOutput(row),
  });
}
