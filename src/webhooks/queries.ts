import type { Db } from '../db/connect.js';
import type { EventType, WebhookEvent } from '../events/outbox.js';
import { DELIVERY_ID, ENDPOINT_ID, type DeliveryStatus, type SubscribableEventType } from './schemas.js';

export interface EndpointRow {
  seq: number;
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: SubscribableEventType[] | null;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
}

export interface DeliveryRow {
  seq: number;
  id: string;
  endpoint_id: string;
  account_id: string;
  event_id: string;
  event_type: EventType;
  stream_id: string | null;
  payload: WebhookEvent;
  status: DeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: Date | null;
  leased_until: Date | null;
  last_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  last_duration_ms: number | null;
  delivered_at: Date | null;
  created_at: Date;
}

export type NewEndpoint = Omit<EndpointRow, 'seq' | 'previous_secret' | 'previous_secret_expires_at'>;
export type NewDelivery = Pick<DeliveryRow, 'id' | 'endpoint_id' | 'account_id' | 'event_id' | 'event_type' | 'stream_id' | 'payload' | 'max_attempts' | 'created_at'> &
  Partial<Pick<DeliveryRow, 'status' | 'next_attempt_at' | 'last_error'>>;

/** The channel the dispatchers LISTEN on; also notified by a trigger when an event commits. */
export const DISPATCH_CHANNEL = 'svc_webhooks';

// Endpoints ------------------------------------------------------------------------------------

export async function countEndpoints(db: Db, accountId: string): Promise<number> {
  const [row] = await db<{ n: number }[]>`select count(*)::int as n from webhook_endpoints where account_id = ${accountId}`;
  return row?.n ?? 0;
}

export async function insertEndpoint(db: Db, endpoint: NewEndpoint): Promise<EndpointRow> {
  const [row] = await db<EndpointRow[]>`insert into webhook_endpoints ${db({ ...endpoint })} returning *`;
  return row as EndpointRow;
}

export async function listEndpoints(db: Db, accountId: string): Promise<EndpointRow[]> {
  return db<EndpointRow[]>`select * from webhook_endpoints where account_id = ${accountId} order by seq`;
}

/** Path ids are any text; one that cannot be an endpoint id names none. */
export async function findEndpoint(db: Db, accountId: string, id: string, lock = false): Promise<EndpointRow | null> {
  if (!ENDPOINT_ID.test(id)) return null;
  const [row] = await db<EndpointRow[]>`
    select * from webhook_endpoints where id = ${id} and account_id = ${accountId} ${lock ? db`for update` : db``}`;
  return row ?? null;
}

export type EndpointChanges = Partial<Pick<EndpointRow, 'url' | 'description' | 'events' | 'enabled' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'>>;

export async function updateEndpoint(db: Db, id: string, changes: EndpointChanges): Promise<EndpointRow> {
  const [row] = await db<EndpointRow[]>`update webhook_endpoints set ${db({ ...changes })} where id = ${id} returning *`;
  return row as EndpointRow;
}

/** Its deliveries and attempts go with it (on delete cascade). */
export async function deleteEndpoint(db: Db, accountId: string, id: string): Promise<boolean> {
  if (!ENDPOINT_ID.test(id)) return false;
  const rows = await db`delete from webhook_endpoints where id = ${id} and account_id = ${accountId} returning id`;
  return rows.length > 0;
}

// Deliveries -----------------------------------------------------------------------------------

export async function insertDeliveries(db: Db, deliveries: NewDelivery[]): Promise<DeliveryRow[]> {
  if (!deliveries.length) return [];
  // Every row with the same columns: one multi-row insert.
  const rows = deliveries.map((d) => ({
    id: d.id,
    endpoint_id: d.endpoint_id,
    account_id: d.account_id,
    event_id: d.event_id,
    event_type: d.event_type,
    stream_id: d.stream_id,
    payload: db.json(d.payload as never),
    status: d.status ?? 'pending',
    max_attempts: d.max_attempts,
    next_attempt_at: d.next_attempt_at === undefined ? d.created_at : d.next_attempt_at,
    last_error: d.last_error ?? null,
    created_at: d.created_at,
  }));
  return db<DeliveryRow[]>`
    insert into webhook_deliveries ${db(rows)}
    on conflict (endpoint_id, event_id) do nothing
    returning *`;
}

export async function findDelivery(db: Db, endpointId: string, id: string, lock = false): Promise<DeliveryRow | null> {
  if (!DELIVERY_ID.test(id)) return null;
  const [row] = await db<DeliveryRow[]>`
    select * from webhook_deliveries where id = ${id} and endpoint_id = ${endpointId} ${lock ? db`for update` : db``}`;
  return row ?? null;
}

export async function findDeliverySeq(db: Db, endpointId: string, id: string): Promise<number | null> {
  const [row] = await db<{ seq: number }[]>`select seq from webhook_deliveries where id = ${id} and endpoint_id = ${endpointId}`;
  return row?.seq ?? null;
}

/** Newest first. */
export async function listDeliveries(
  db: Db,
  endpointId: string,
  opts: { limit: number; status: DeliveryStatus | null; afterSeq: number | null },
): Promise<DeliveryRow[]> {
  return db<DeliveryRow[]>`
    select * from webhook_deliveries
    where endpoint_id = ${endpointId}
      ${opts.status ? db`and status = ${opts.status}` : db``}
      ${opts.afterSeq !== null ? db`and seq < ${opts.afterSeq}` : db``}
    order by seq desc
    limit ${opts.limit}`;
}

/** Queued deliveries of a disabled endpoint fail (spec: Webhook delivery status). */
export async function failPendingDeliveries(db: Db, endpointId: string, reason: string): Promise<number> {
  const rows = await db`
    update webhook_deliveries set status = 'failed', next_attempt_at = null, last_error = ${reason}
    where endpoint_id = ${endpointId} and status = 'pending'
    returning id`;
  return rows.length;
}

/** Failed: one more attempt now. Pending: brought forward. */
export async function retryDelivery(db: Db, delivery: DeliveryRow, now: Date): Promise<DeliveryRow> {
  const [row] = await db<DeliveryRow[]>`
    update webhook_deliveries set
      status = 'pending',
      next_attempt_at = ${now},
      max_attempts = ${delivery.status === 'failed' ? delivery.attempts + 1 : delivery.max_attempts}
    where id = ${delivery.id}
    returning *`;
  return row as DeliveryRow;
}

export async function purgeDeliveries(db: Db, before: Date, batch: number): Promise<number> {
  const rows = await db`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries where created_at < ${before} limit ${batch})
    returning id`;
  return rows.length;
}

export async function notifyDispatchers(db: Db): Promise<void> {
  await db`select pg_notify(${DISPATCH_CHANNEL}, '')`;
}

// Dispatcher -----------------------------------------------------------------------------------

export interface OutboxEvent {
  seq: number;
  id: string;
  type: EventType;
  account_id: string;
  stream_id: string | null;
  payload: WebhookEvent;
}

/** Events not yet fanned out, oldest first, locked for this dispatcher; others skip them. */
export async function lockEventsToFanOut(db: Db, batch: number): Promise<OutboxEvent[]> {
  return db<OutboxEvent[]>`
    select seq, id, type, account_id, stream_id, payload from events
    where fanned_out_at is null
    order by seq limit ${batch}
    for update skip locked`;
}

export async function markFannedOut(db: Db, seqs: number[], at: Date): Promise<void> {
  if (!seqs.length) return;
  await db`update events set fanned_out_at = ${at} where seq = any(${seqs}::bigint[])`;
}

export async function enabledEndpointsOf(db: Db, accountIds: string[]): Promise<EndpointRow[]> {
  if (!accountIds.length) return [];
  return db<EndpointRow[]>`select * from webhook_endpoints where account_id = any(${accountIds}::text[]) and enabled`;
}

/** A due delivery with what sending it needs from its endpoint. */
export interface DueDelivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  payload: WebhookEvent;
  attempts: number;
  max_attempts: number;
  url: string;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Due deliveries, oldest due first, locked for this transaction (`FOR UPDATE SKIP LOCKED`:
 * dispatchers sharing the database never take the same row). `busyEndpoints` are left out: this
 * dispatcher already sends to them as much as it may, and others should get the slots.
 */
export async function lockDueDeliveries(db: Db, now: Date, batch: number, busyEndpoints: string[]): Promise<DueDelivery[]> {
  return db<DueDelivery[]>`
    select d.id, d.endpoint_id, d.event_id, d.payload, d.attempts, d.max_attempts,
           e.url, e.enabled, e.secret, e.previous_secret, e.previous_secret_expires_at
    from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
    where d.status = 'pending' and d.next_attempt_at <= ${now}
      and (d.leased_until is null or d.leased_until <= ${now})
      ${busyEndpoints.length ? db`and d.endpoint_id <> all(${busyEndpoints}::text[])` : db``}
    order by d.next_attempt_at
    limit ${batch}
    for update of d skip locked`;
}

export async function leaseDeliveries(db: Db, ids: string[], until: Date): Promise<void> {
  if (!ids.length) return;
  await db`update webhook_deliveries set leased_until = ${until} where id = any(${ids}::text[])`;
}

export async function failDeliveries(db: Db, ids: string[], reason: string): Promise<void> {
  if (!ids.length) return;
  await db`
    update webhook_deliveries set status = 'failed', next_attempt_at = null, leased_until = null, last_error = ${reason}
    where id = any(${ids}::text[])`;
}

export interface AttemptResult {
  deliveryId: string;
  attempt: number;
  startedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** What the delivery becomes: succeeded, pending (with `nextAttemptAt`) or failed. */
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
}

/**
 * Records one attempt and its outcome on the delivery, in one statement. A delivery whose
 * endpoint was disabled meanwhile fails instead of waiting for another attempt.
 */
export async function recordAttempt(db: Db, r: AttemptResult): Promise<void> {
  await db`
    with attempt as (
      -- Nothing to record if the endpoint, and with it the delivery, was deleted meanwhile.
      insert into webhook_attempts (delivery_id, attempt, started_at, status_code, error, duration_ms)
      select id, ${r.attempt}, ${r.startedAt}, ${r.statusCode}, ${r.error}, ${r.durationMs}
      from webhook_deliveries where id = ${r.deliveryId}
    )
    update webhook_deliveries d set
      attempts = d.attempts + 1,
      last_attempt_at = ${r.startedAt},
      last_status_code = ${r.statusCode},
      last_error = ${r.error},
      last_duration_ms = ${r.durationMs},
      leased_until = null,
      delivered_at = ${r.status === 'succeeded' ? r.startedAt : null},
      status = case when ${r.status} = 'pending' and not e.enabled then 'failed' else ${r.status} end,
      next_attempt_at = case when ${r.status} = 'pending' and not e.enabled then null else ${r.nextAttemptAt}::timestamptz end
    from webhook_endpoints e
    where d.id = ${r.deliveryId} and e.id = d.endpoint_id`;
}
