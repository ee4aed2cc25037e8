import { newId } from '../../../core/ids.js';
import type { Db } from '../../../platform/db/connect.js';

/** Every type sent to the endpoints subscribed to it (`event_types`; `all_events` means these). */
export const EVENT_TYPES = [
  'stream.live',
  'stream.ended',
  'stream.expired',
  'stream.cancelled',
  'recording.ready',
  'recording.failed',
  'recording.deleted',
  'credit.low',
  'credit.depleted',
  'balance.low',
  'balance.depleted',
  'output.connected',
  'output.errored',
  'output.disconnected',
] as const;

/**
 * Every event type the appliance writes: those and `webhook.test`, which the test operation sends
 * to its own endpoint. The OpenAPI `webhooks` section describes each (test/http).
 */
export const EVENT_TYPE_NAMES = [...EVENT_TYPES, 'webhook.test'] as const;
export type EventType = (typeof EVENT_TYPE_NAMES)[number];

/** The spec's WebhookEvent: what a receiver gets as the body. */
export interface WebhookEvent {
  type: EventType;
  timestamp: string;
  data: Record<string, unknown>;
}

export interface EventRow {
  seq: number;
  id: string;
  type: EventType;
  account_id: string;
  stream_id: string | null;
  payload: WebhookEvent;
  created_at: Date;
}

/**
 * Writes an event to the outbox. Call it inside the transaction that makes the transition, so
 * the event exists exactly when the new state does; the webhook dispatcher delivers it later.
 */
export async function appendEvent(
  tx: Db,
  event: { type: EventType; accountId: string; streamId: string | null; at: Date; data: Record<string, unknown> },
): Promise<EventRow> {
  const payload: WebhookEvent = { type: event.type, timestamp: event.at.toISOString(), data: event.data };
  const [row] = await tx<EventRow[]>`
    insert into events (id, type, account_id, stream_id, payload, created_at)
    values (${newId('evt_')}, ${event.type}, ${event.accountId}, ${event.streamId}, ${tx.json(payload as never)}, ${event.at})
    returning *`;
  return row as EventRow;
}
