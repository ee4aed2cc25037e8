import type { Db } from '../../../platform/db/connect.js';
import type { EventRow, EventType, WebhookEvent } from '../../ledger/events/outbox.js';
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
export type NewDelivery = Pick<
  DeliveryRow,
  | 'id'
  | 'endpoint_id'
  | 'account_id'
  | 'event_id'
  | 'event_type'
  | 'stream_id'
  | 'payload'
  | 'max_attempts'
  | 'created_at'
> &
  Partial<Pick<DeliveryRow, 'status' | 'next_attempt_at' | 'last_error'>>;

/** The channel the dispatchers LISTEN on; also notified by a trigger when an event commits. */
export const DISPATCH_CHANNEL = 'svc_webhooks';

// Endpoints ------------------------------------------------------------------------------------

export async function countEndpoints(db: Db, accountId: string): Promise<number> {
  const [row] = await db<
    { n: number }[]
  >`select count(*)::int as n from webhook_endpoints where account_id = ${accountId}`;
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

export type EndpointChanges = Partial<
  Pick<
    EndpointRow,
    'url' | 'description' | 'events' | 'enabled' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'
  >
>;

export async function updateEndpoint(db: Db, id: string, changes: EndpointChanges): Promise<EndpointRow> {
  const [row] = await db<
    EndpointRow[]
  >`update webhook_endpoints set ${db({ ...changes })} where id = ${id} returning *`;
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
  const [row] = await db<
    { seq: number }[]
  >`select seq from webhook_deliveries where id = ${id} and endpoint_id = ${endpointId}`;
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

/** Wakes the dispatchers for a delivery queued or brought forward (events notify with `event`). */
export async function notifyDispatchers(db: Db): Promise<void> {
  await db`select pg_notify(${DISPATCH_CHANNEL}, 'delivery')`;
}

// Dispatcher -----------------------------------------------------------------------------------

/** An outbox row as the dispatcher reads it (the events table's row without its time). */
export type OutboxEvent = Omit<EventRow, 'created_at'>;

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
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
}

/**
 * Takes due deliveries for one dispatcher, in one statement: oldest due first, rows other
 * dispatchers hold are skipped (`FOR UPDATE SKIP LOCKED`), at most `perEndpoint` in flight per
 * endpoint counting `inFlight` (what this dispatcher already sends), at most `free` in all. The
 * taken rows are leased until `leaseUntil`; due rows of disabled endpoints fail on the way.
 * Endpoints in `busy` (at their limit already) are not even looked at, so others get the slots.
 */
export async function claimDueDeliveries(
  db: Db,
  opts: {
    now: Date;
    leaseUntil: Date;
    free: number;
    perEndpoint: number;
    inFlight: Record<string, number>;
    disabledError: string;
  },
): Promise<DueDelivery[]> {
  const busy = Object.entries(opts.inFlight)
    .filter(([, n]) => n >= opts.perEndpoint)
    .map(([id]) => id);
  return db<DueDelivery[]>`
    with locked as (
      select d.id, d.endpoint_id, d.next_attempt_at, e.enabled
      from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
      where d.status = 'pending' and d.next_attempt_at <= ${opts.now}
        and (d.leased_until is null or d.leased_until <= ${opts.now})
        ${busy.length ? db`and d.endpoint_id <> all(${busy}::text[])` : db``}
      order by d.next_attempt_at
      limit ${opts.free * 2}
      for update of d skip locked
    ),
    disabled as (
      update webhook_deliveries d set status = 'failed', next_attempt_at = null, last_error = ${opts.disabledError}
      from locked l where d.id = l.id and not l.enabled
    ),
    picked as (
      select id from (
        select id, endpoint_id, next_attempt_at, row_number() over (partition by endpoint_id order by next_attempt_at) as rn
        from locked where enabled
      ) r
      where r.rn + coalesce((${db.json(opts.inFlight)}::jsonb ->> r.endpoint_id)::int, 0) <= ${opts.perEndpoint}
      order by r.next_attempt_at
      limit ${opts.free}
    )
    update webhook_deliveries d set leased_until = ${opts.leaseUntil}
    from picked p, webhook_endpoints e
    where d.id = p.id and e.id = d.endpoint_id
    returning d.id, d.endpoint_id, d.event_id, d.payload, d.attempts, d.max_attempts,
              e.url, e.secret, e.previous_secret, e.previous_secret_expires_at`;
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
 * Records attempts and their outcomes on the deliveries, in one statement (one commit for a
 * batch: under load the attempts that end together are written together). A delivery whose
 * endpoint was disabled meanwhile fails instead of waiting for another attempt; one deleted
 * meanwhile (with its endpoint) has nothing left to record.
 */
export async function recordAttempts(db: Db, results: AttemptResult[]): Promise<void> {
  if (!results.length) return;
  const rows = results.map((r) => ({
    delivery_id: r.deliveryId,
    attempt: r.attempt,
    started_at: r.startedAt.toISOString(),
    status_code: r.statusCode,
    error: r.error,
    duration_ms: r.durationMs,
    status: r.status,
    next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
  }));
  // The ids again as an array: the planner then reads the rows by key (it cannot see into the recordset).
  const ids = results.map((r) => r.deliveryId);
  await db`
    with r as (
      select * from jsonb_to_recordset(${db.json(rows as never)}) as x(
        delivery_id text, attempt int, started_at timestamptz, status_code int, error text, duration_ms int,
        status text, next_attempt_at timestamptz)
    ),
    attempts as (
      insert into webhook_attempts (delivery_id, attempt, started_at, status_code, error, duration_ms)
      select r.delivery_id, r.attempt, r.started_at, r.status_code, r.error, r.duration_ms
      from r join webhook_deliveries d on d.id = r.delivery_id
      where d.id = any(${ids}::text[])
    )
    update webhook_deliveries d set
      attempts = d.attempts + 1,
      last_attempt_at = r.started_at,
      last_status_code = r.status_code,
      last_error = r.error,
      last_duration_ms = r.duration_ms,
      leased_until = null,
      delivered_at = case when r.status = 'succeeded' then r.started_at end,
      status = case when r.status = 'pending' and not e.enabled then 'failed' else r.status end,
      next_attempt_at = case when r.status = 'pending' and not e.enabled then null else r.next_attempt_at end
    from r, webhook_endpoints e
    where d.id = any(${ids}::text[]) and d.id = r.delivery_id and e.id = d.endpoint_id`;
}
