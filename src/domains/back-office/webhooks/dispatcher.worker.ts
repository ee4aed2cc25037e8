import pRetry from 'p-retry';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { newId } from '../../../core/ids.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import { isDatabaseUnavailable } from '../../../platform/db/errors.js';
import * as q from './queries.js';
import { eventBody } from './present.js';
import { RETRY_SCHEDULE_SECONDS, type DeliveryStatus } from './schemas.js';
import { postWebhook } from './sender.js';
import { DISABLED_ERROR, MAX_ATTEMPTS } from './service.js';
import { webhookHeaders } from './signing.js';
import type { TargetPolicy } from './ssrf.js';

export interface DispatcherOptions {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  policy: TargetPolicy;
  /** A 2xx must arrive within this (spec: 10 s). */
  timeoutMs?: number;
  /** Fallback poll: retries coming due, and a missed notification. New events wake it at once. */
  pollMs?: number;
  /** Attempts in flight to one endpoint from this dispatcher: a slow receiver holds only these. */
  perEndpoint?: number;
  /** Attempts in flight in all. */
  maxInFlight?: number;
  /** Told of every attempt's outcome (metrics). */
  onAttempt?: (attempt: AttemptOutcome) => void;
}

/** One attempt as the metrics see it: the receiver's answer time and whether it took the event. */
export interface AttemptOutcome {
  endpointId: string;
  ok: boolean;
  seconds: number;
}

const FAN_OUT_BATCH = 500;

/**
 * Delivers the events outbox to webhook endpoints. Every state is in PostgreSQL: each event is
 * fanned out once into one delivery per subscribed endpoint; due deliveries are taken with
 * `FOR UPDATE SKIP LOCKED` and leased while they are sent, so several dispatchers can share a
 * database and a crashed one's work is picked up when its lease runs out. Each attempt is
 * recorded with its outcome and the next time from the persisted schedule.
 */
export class WebhookDispatcher {
  private readonly timeoutMs: number;
  private readonly pollMs: number;
  private readonly perEndpointLimit: number;
  private readonly maxInFlight: number;
  /** Long enough for any attempt to end; a dispatcher that died mid-attempt is retried after it. */
  private readonly leaseSeconds: number;
  private readonly log: Logger;

  private readonly inFlight = new Set<Promise<void>>();
  private readonly perEndpoint = new Map<string, number>();
  private running: Promise<void> | null = null;
  private stopping = false;
  private woken = false;
  private wakeSleeper: (() => void) | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  /** Set by an event's NOTIFY (and without LISTEN): the outbox may hold events to fan out. */
  private eventsWaiting = true;
  private lastFanOut = -Infinity;
  private readonly unrecorded: { result: q.AttemptResult; resolve: () => void; reject: (err: unknown) => void }[] = [];
  private flushing: Promise<void> | null = null;
  /** The last pass failed for want of the database: said once per outage, not every poll. */
  private waitingForDatabase = false;

  constructor(private readonly opts: DispatcherOptions) {
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.pollMs = opts.pollMs ?? 1000;
    this.perEndpointLimit = opts.perEndpoint ?? 4;
    this.maxInFlight = opts.maxInFlight ?? 32;
    this.leaseSeconds = Math.ceil(this.timeoutMs / 1000) + 60;
    this.log = opts.logger.child({ domain: 'webhooks' });
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.stopping = false;
    try {
      const listener = await this.opts.sql.listen(q.DISPATCH_CHANNEL, (payload) => {
        if (payload === 'event') this.eventsWaiting = true;
        this.wake();
      });
      this.unlisten = () => listener.unlisten();
    } catch (err) {
      this.unlisten = null;
      this.log.warn({ err }, 'LISTEN failed: new events wait for the poll');
    }
    this.running = this.loop();
  }

  /** Stops taking work, lets attempts in flight finish and record their outcome. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
    this.running = null;
    await Promise.all(this.inFlight);
    await this.unlisten?.().catch(() => {});
    this.unlisten = null;
  }

  /** Look for work now (a notification, a freed slot, a test that moved the clock). */
  wake(): void {
    this.woken = true;
    this.wakeSleeper?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopping) {
      this.woken = false;
      let more = false;
      try {
        more = await this.pass();
        if (this.waitingForDatabase) this.log.info('webhook dispatch runs again');
        this.waitingForDatabase = false;
      } catch (err) {
        if (!isDatabaseUnavailable(err)) this.log.error({ err }, 'webhook dispatch pass failed');
        else if (!this.waitingForDatabase) this.log.warn({ err }, 'webhook dispatch waits for the database');
        this.waitingForDatabase ||= isDatabaseUnavailable(err);
      }
      if (!more && !this.stopping) await this.sleep(this.pollMs);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeSleeper = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleeper = done;
    });
  }

  /**
   * One round: fan out new events, then start what is due and fits. True when more may be due.
   * The outbox is read when an event was notified and at least once per poll interval (a
   * notification lost with a dropped connection); a freed slot only claims.
   */
  private async pass(): Promise<boolean> {
    if (this.eventsWaiting || !this.unlisten || performance.now() - this.lastFanOut >= this.pollMs) {
      this.eventsWaiting = false;
      this.lastFanOut = performance.now();
      await this.fanOut();
    }
    const free = this.maxInFlight - this.inFlight.size;
    if (free <= 0) return false;
    const started = await q.claimDueDeliveries(this.opts.sql, {
      now: this.opts.clock.now(),
      leaseUntil: addSeconds(this.opts.clock.now(), this.leaseSeconds),
      free,
      perEndpoint: this.perEndpointLimit,
      inFlight: Object.fromEntries(this.perEndpoint),
      disabledError: DISABLED_ERROR,
    });
    for (const d of started) this.launch(d);
    return started.length > 0 && started.length < free;
  }

  /** Each event once: one delivery per enabled endpoint of its account subscribed to its type. */
  async fanOut(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.opts.sql.begin(async (tx) => {
        const events = await q.lockEventsToFanOut(tx, FAN_OUT_BATCH);
        if (!events.length) return 0;
        const endpoints = await q.enabledEndpointsOf(tx, [...new Set(events.map((e) => e.account_id))]);
        const now = this.opts.clock.now();
        const deliveries: q.NewDelivery[] = [];
        for (const event of events) {
          // `webhook.test` was queued for one endpoint by the test operation itself.
          if (event.type === 'webhook.test') continue;
          for (const ep of endpoints) {
            if (ep.account_id !== event.account_id) continue;
            if (ep.events !== null && !(ep.events as string[]).includes(event.type)) continue;
            deliveries.push({
              id: newId('dlv_'),
              endpoint_id: ep.id,
              account_id: event.account_id,
              event_id: event.id,
              event_type: event.type,
              stream_id: event.stream_id,
              payload: event.payload,
              max_attempts: MAX_ATTEMPTS,
              created_at: now,
            });
          }
        }
        await q.insertDeliveries(tx, deliveries);
        await q.markFannedOut(
          tx,
          events.map((e) => e.seq),
          now,
        );
        return events.length;
      });
      total += n;
      if (n < FAN_OUT_BATCH) return total;
    }
  }

  private launch(d: q.DueDelivery): void {
    this.perEndpoint.set(d.endpoint_id, (this.perEndpoint.get(d.endpoint_id) ?? 0) + 1);
    const done: Promise<void> = this.attempt(d)
      .catch((err: unknown) => this.log.error({ err, delivery_id: d.id }, 'webhook attempt could not be recorded'))
      .finally(() => {
        const n = (this.perEndpoint.get(d.endpoint_id) ?? 1) - 1;
        if (n > 0) this.perEndpoint.set(d.endpoint_id, n);
        else this.perEndpoint.delete(d.endpoint_id);
        this.inFlight.delete(done);
        this.wake();
      });
    this.inFlight.add(done);
  }

  private async attempt(d: q.DueDelivery): Promise<void> {
    const { clock } = this.opts;
    const startedAt = clock.now();
    const t0 = performance.now();
    const body = eventBody(d.payload);
    const secrets = [d.secret];
    if (d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at > startedAt)
      secrets.push(d.previous_secret);
    const headers = webhookHeaders(secrets, d.event_id, Math.floor(startedAt.getTime() / 1000), body);
    const outcome = await postWebhook(d.url, headers, body, { policy: this.opts.policy, timeoutMs: this.timeoutMs });
    const elapsedMs = performance.now() - t0;
    const durationMs = Math.round(elapsedMs);
    this.opts.onAttempt?.({ endpointId: d.endpoint_id, ok: outcome.ok, seconds: elapsedMs / 1000 });

    const attempt = d.attempts + 1;
    const status: DeliveryStatus = outcome.ok ? 'succeeded' : attempt >= d.max_attempts ? 'failed' : 'pending';
    const delay = RETRY_SCHEDULE_SECONDS[Math.min(attempt, RETRY_SCHEDULE_SECONDS.length) - 1] ?? 0;
    const nextAttemptAt = status === 'pending' ? addSeconds(clock.now(), delay) : null;
    if (!outcome.ok)
      this.log.info(
        {
          delivery_id: d.id,
          endpoint_id: d.endpoint_id,
          attempt,
          status_code: outcome.statusCode,
          error: outcome.error,
          next_attempt_at: nextAttemptAt,
        },
        'webhook attempt failed',
      );
    await this.record({
      deliveryId: d.id,
      attempt,
      startedAt,
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs,
      status,
      nextAttemptAt,
    });
  }

  /**
   * Group commit: an outcome is written at once when nothing is being written, else with the
   * others that ended meanwhile, in the next statement.
   */
  private record(result: q.AttemptResult): Promise<void> {
    return new Promise((resolve, reject) => {
      this.unrecorded.push({ result, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    while (this.unrecorded.length) {
      const batch = this.unrecorded.splice(0, 500);
      try {
        // The attempts happened: recording them survives a brief database hiccup (a local,
        // transient failure). A receiver's failure is never retried here, only by the schedule.
        await pRetry(
          () =>
            q.recordAttempts(
              this.opts.sql,
              batch.map((b) => b.result),
            ),
          { retries: 5, minTimeout: 100, maxTimeout: 2000 },
        );
        for (const b of batch) b.resolve();
      } catch (err) {
        for (const b of batch) b.reject(err);
      }
    }
    this.flushing = null;
  }
}
