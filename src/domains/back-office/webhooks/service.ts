import { lockAccount, type Account } from '../../ledger/accounts/model.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import { appendEvent, EVENT_TYPES } from '../../ledger/events/outbox.js';
import * as q from './queries.js';
import { presentDelivery, presentEndpoint, presentEndpointWithSecret } from './present.js';
import {
  MAX_ENDPOINTS,
  RETRY_SCHEDULE_SECONDS,
  type CreateWebhookBody,
  type ListDeliveriesQuery,
  type PatchWebhookBody,
  type SubscribableEventType,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
  type WebhookEndpointWithSecret,
} from './schemas.js';
import { newSigningSecret } from './signing.js';
import { checkTargetOnSave, TargetRefused, type TargetPolicy } from './ssrf.js';

/** The old secret keeps signing this long after a rotation. */
export const ROTATION_OVERLAP_SECONDS = 24 * 3600;
/** Deliveries (payload and last answer) are kept this long. */
export const DELIVERY_RETENTION_DAYS = 30;
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
export const DISABLED_ERROR = 'endpoint disabled';

export interface WebhooksDeps {
  sql: Sql;
  clock: Clock;
  policy: TargetPolicy;
}

/** Endpoints and their delivery log (the API's side); the dispatcher sends. */
export class WebhooksService {
  constructor(private readonly deps: WebhooksDeps) {}

  async list(account: Account): Promise<WebhookEndpointList> {
    const rows = await q.listEndpoints(this.deps.sql, account.id);
    return { object: 'list', data: rows.map(presentEndpoint), has_more: false, event_types: [...EVENT_TYPES] };
  }

  async create(account: Account, body: CreateWebhookBody): Promise<WebhookEndpointWithSecret> {
    await this.checkUrl(body.url);
    return this.deps.sql.begin(async (tx) => {
      // Counted under the account's row lock: concurrent creations cannot both pass the limit.
      await lockAccount(tx, account.id);
      const current = await q.countEndpoints(tx, account.id);
      if (current >= MAX_ENDPOINTS) {
        throw new ApiError(
          'limit_webhook_endpoints',
          `${current} webhook endpoints exist, the most allowed; delete one first.`,
          { limit: MAX_ENDPOINTS, current },
        );
      }
      const row = await q.insertEndpoint(tx, {
        id: newId('whk_'),
        account_id: account.id,
        url: body.url,
        description: normaliseDescription(body.description ?? null),
        events: normaliseEvents(body.events ?? null),
        enabled: true,
        secret: newSigningSecret(),
        created_at: this.deps.clock.now(),
      });
      return presentEndpointWithSecret(row);
    });
  }

  async get(account: Account, id: string): Promise<WebhookEndpointWithSecret> {
    const row = await q.findEndpoint(this.deps.sql, account.id, id);
    if (!row) throw notFound('webhook endpoint');
    return presentEndpointWithSecret(row);
  }

  /**
   * Fields left out stay; `enabled: false` fails the queued deliveries in the same transaction.
   * No secret in the answer: the spec shows it on create, single read and rotation only.
   */
  async update(account: Account, id: string, body: PatchWebhookBody): Promise<WebhookEndpoint> {
    if (body.url !== undefined) await this.checkUrl(body.url);
    return this.deps.sql.begin(async (tx) => {
      const row = await q.findEndpoint(tx, account.id, id, true);
      if (!row) throw notFound('webhook endpoint');
      const changes: q.EndpointChanges = {};
      if (body.url !== undefined) changes.url = body.url;
      if (body.description !== undefined) changes.description = normaliseDescription(body.description);
      if (body.events !== undefined) changes.events = normaliseEvents(body.events);
      if (body.enabled !== undefined) changes.enabled = body.enabled;
      const updated = Object.keys(changes).length ? await q.updateEndpoint(tx, row.id, changes) : row;
      if (body.enabled === false) await q.failPendingDeliveries(tx, row.id, DISABLED_ERROR);
      return presentEndpoint(updated);
    });
  }

  async remove(account: Account, id: string): Promise<void> {
    if (!(await q.deleteEndpoint(this.deps.sql, account.id, id))) throw notFound('webhook endpoint');
  }

  /** A new secret; the previous one keeps signing (a second signature) for 24 hours. */
  async rotateSecret(account: Account, id: string): Promise<WebhookEndpointWithSecret> {
    return this.deps.sql.begin(async (tx) => {
      const row = await q.findEndpoint(tx, account.id, id, true);
      if (!row) throw notFound('webhook endpoint');
      const updated = await q.updateEndpoint(tx, row.id, {
        secret: newSigningSecret(),
        previous_secret: row.secret,
        previous_secret_expires_at: addSeconds(this.deps.clock.now(), ROTATION_OVERLAP_SECONDS),
      });
      return presentEndpointWithSecret(updated);
    });
  }

  /**
   * Queues `webhook.test` for this endpoint only: an event in the outbox (for its id) and its one
   * delivery, attempted at once. A disabled endpoint gets the delivery already failed.
   */
  async test(account: Account, id: string): Promise<WebhookDelivery> {
    return this.deps.sql.begin(async (tx) => {
      const row = await q.findEndpoint(tx, account.id, id);
      if (!row) throw notFound('webhook endpoint');
      const now = this.deps.clock.now();
      const event = await appendEvent(tx, {
        type: 'webhook.test',
        accountId: account.id,
        streamId: null,
        at: now,
        data: presentEndpoint(row),
      });
      await q.markFannedOut(tx, [event.seq], now);
      const [delivery] = await q.insertDeliveries(tx, [
        {
          id: newId('dlv_'),
          endpoint_id: row.id,
          account_id: account.id,
          event_id: event.id,
          event_type: event.type,
          stream_id: null,
          payload: event.payload,
          max_attempts: MAX_ATTEMPTS,
          created_at: now,
          ...(row.enabled ? {} : { status: 'failed' as const, next_attempt_at: null, last_error: DISABLED_ERROR }),
        },
      ]);
      await q.notifyDispatchers(tx);
      return presentDelivery(delivery as q.DeliveryRow);
    });
  }

  async deliveries(account: Account, id: string, query: ListDeliveriesQuery): Promise<WebhookDeliveryList> {
    const endpoint = await q.findEndpoint(this.deps.sql, account.id, id);
    if (!endpoint) throw notFound('webhook endpoint');
    const limit = query.limit ?? 20;
    let afterSeq: number | null = null;
    if (query.starting_after) {
      afterSeq = await q.findDeliverySeq(this.deps.sql, endpoint.id, query.starting_after);
      if (afterSeq === null) {
        throw new ApiError(
          'invalid_request',
          `\`starting_after\` names no delivery of this endpoint: ${query.starting_after}.`,
          { field: 'starting_after' },
        );
      }
    }
    const rows = await q.listDeliveries(this.deps.sql, endpoint.id, {
      limit: limit + 1,
      status: query.status ?? null,
      afterSeq,
    });
    return { object: 'list', data: rows.slice(0, limit).map(presentDelivery), has_more: rows.length > limit };
  }

  /** Failed: one more attempt now; pending: brought forward; succeeded (or unknown): 404. */
  async retry(account: Account, id: string, deliveryId: string): Promise<WebhookDelivery> {
    return this.deps.sql.begin(async (tx) => {
      const endpoint = await q.findEndpoint(tx, account.id, id);
      if (!endpoint) throw notFound('webhook endpoint');
      const delivery = await q.findDelivery(tx, endpoint.id, deliveryId, true);
      if (!delivery || delivery.status === 'succeeded') {
        throw new ApiError('not_found', 'No failed or pending delivery with this id on this endpoint.');
      }
      const updated = await q.retryDelivery(tx, delivery, this.deps.clock.now());
      await q.notifyDispatchers(tx);
      return presentDelivery(updated);
    });
  }

  /** The 30-day log: older deliveries (and their attempts) are deleted; returns how many. */
  async purgeDeliveries(batch = 1000): Promise<number> {
    const before = addSeconds(this.deps.clock.now(), -DELIVERY_RETENTION_DAYS * 86400);
    let total = 0;
    for (;;) {
      const n = await q.purgeDeliveries(this.deps.sql, before, batch);
      total += n;
      if (n < batch) return total;
    }
  }

  private async checkUrl(url: string): Promise<void> {
    try {
      await checkTargetOnSave(url, this.deps.policy);
    } catch (err) {
      if (err instanceof TargetRefused)
        throw new ApiError('invalid_request', `\`url\` ${err.message}.`, { field: 'url' });
      throw err;
    }
  }
}

const normaliseDescription = (d: string | null): string | null => (d === null || d.trim() === '' ? null : d);

/** null means every type; duplicates are dropped, the order kept. */
const normaliseEvents = (events: SubscribableEventType[] | null): SubscribableEventType[] | null =>
  events === null ? null : [...new Set(events)];
