import { iso } from '../../../core/time.js';
import type { DeliveryRow, EndpointRow } from './queries.js';
import { EVENT_TYPES } from '../../ledger/events/outbox.js';
import { type WebhookDelivery, type WebhookEndpoint, type WebhookEndpointWithSecret } from './schemas.js';

/** The spec's WebhookEndpoint without its secret (lists, and `data` of `webhook.test`). */
export function presentEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events ?? [...EVENT_TYPES],
    all_events: row.events === null,
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
  };
}

/** With `secret`: create, single read and rotation only. */
export const presentEndpointWithSecret = (row: EndpointRow): WebhookEndpointWithSecret => ({
  ...presentEndpoint(row),
  secret: row.secret,
});

export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    object: 'webhook_delivery',
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    stream_id: row.stream_id,
    status: row.status,
    attempts: row.attempts,
    max_attempts: row.max_attempts,
    next_attempt_at: row.status === 'pending' ? iso(row.next_attempt_at) : null,
    last_attempt_at: iso(row.last_attempt_at),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    last_duration_ms: row.last_duration_ms,
    delivered_at: iso(row.delivered_at),
    created_at: row.created_at.toISOString(),
    payload: row.payload as WebhookDelivery['payload'],
  };
}

/** The body sent: the WebhookEvent with its keys in the spec's order. */
export const eventBody = (payload: DeliveryRow['payload']): string =>
  JSON.stringify({ type: payload.type, timestamp: payload.timestamp, data: payload.data });
