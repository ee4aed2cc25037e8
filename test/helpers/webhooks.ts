import * as assert from 'uvu/assert';
import { suite, type Test } from 'uvu';
import { createLogger } from '../../src/core/logger.js';
import { appendEvent, type EventRow, type EventType } from '../../src/domains/ledger/events/outbox.js';
import { WebhookDispatcher, type DispatcherOptions } from '../../src/domains/back-office/webhooks/dispatcher.worker.js';
import type { DeliveryRow } from '../../src/domains/back-office/webhooks/queries.js';
import { systemLookup, type Lookup } from '../../src/domains/back-office/webhooks/ssrf.js';
import { createTestApi, type TestApi } from './api.js';
import { Receiver } from './receiver.js';

export type WebhookSuiteContext = {
  env: TestApi;
  key: string;
  accountId: string;
  receiver: Receiver;
  dispatchers: WebhookDispatcher[];
};

/**
 * A suite over a fresh API with private webhook targets allowed (the receiver is on loopback),
 * the manual clock starting at real time (receivers check timestamps), a loopback receiver, and
 * a fresh account for each test.
 */
export function webhookSuite(name: string): Test<WebhookSuiteContext> {
  const t = suite<WebhookSuiteContext>(name);
  t.before(async (ctx) => {
    ctx.env = await createTestApi({ allow_private_webhooks: true }, { clockStart: new Date() });
    ctx.receiver = await Receiver.start();
    ctx.dispatchers = [];
  });
  // An account per test: each starts with no endpoints (at most 5 per account).
  t.before.each(async (ctx) => {
    // Back to real time: receivers refuse timestamps more than 5 minutes off.
    ctx.env.clock.advance((Date.now() - ctx.env.clock.now().getTime()) / 1000);
    const { id, key } = await ctx.env.newAccount();
    ctx.key = key;
    ctx.accountId = id;
  });
  t.after.each(async (ctx) => {
    for (const d of ctx.dispatchers.splice(0)) await d.stop();
    // Nothing left queued for the next test's dispatchers.
    await ctx.env.db.sql`delete from webhook_endpoints where account_id = ${ctx.accountId}`;
  });
  t.after(async (ctx) => {
    await ctx.receiver.close();
    await ctx.env.close();
  });
  return t;
}

/** A dispatcher over the suite's database and clock; stopped after each test. */
export function startDispatcher(
  ctx: WebhookSuiteContext,
  opts: Partial<Omit<DispatcherOptions, 'sql' | 'clock' | 'logger' | 'policy'>> & {
    allowPrivate?: boolean;
    lookup?: Lookup;
  } = {},
): Promise<WebhookDispatcher> {
  const { allowPrivate = true, lookup = systemLookup, ...rest } = opts;
  const dispatcher = new WebhookDispatcher({
    sql: ctx.env.db.sql,
    clock: ctx.env.clock,
    logger: createLogger(process.env.WEBHOOK_LOG ?? 'silent'),
    policy: { allowPrivate, lookup },
    pollMs: 50,
    ...rest,
  });
  ctx.dispatchers.push(dispatcher);
  return dispatcher.start().then(() => dispatcher);
}

export async function createEndpoint(ctx: WebhookSuiteContext, body: Record<string, unknown>, key = ctx.key) {
  const res = await ctx.env.call('POST', '/v1/webhooks', { key, body });
  assert.is(res.status, 201, res.text);
  return res.body as { id: string; secret: string; url: string; [k: string]: unknown };
}

/** An event in the outbox, as a stream transition writes it. */
export async function emit(
  ctx: WebhookSuiteContext,
  type: EventType = 'stream.cancelled',
  accountId = ctx.accountId,
): Promise<EventRow> {
  return ctx.env.db.sql.begin((tx) =>
    appendEvent(tx, {
      type,
      accountId,
      streamId: 'str_00000000000000000000',
      at: ctx.env.clock.now(),
      data: { object: 'stream', id: 'str_00000000000000000000', status: 'cancelled' },
    }),
  );
}

export async function deliveriesOf(ctx: WebhookSuiteContext, endpointId: string): Promise<DeliveryRow[]> {
  return ctx.env.db.sql<DeliveryRow[]>`select * from webhook_deliveries where endpoint_id = ${endpointId} order by seq`;
}

export async function attemptsOf(ctx: WebhookSuiteContext, deliveryId: string) {
  return ctx.env.db.sql<{ attempt: number; status_code: number | null; error: string | null; duration_ms: number }[]>`
    select attempt, status_code, error, duration_ms from webhook_attempts where delivery_id = ${deliveryId} order by id`;
}

/** Polls until `check` holds (the dispatcher works in the background). */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The endpoint's first delivery, once the dispatcher has fanned the event out. */
export const firstDelivery = (ctx: WebhookSuiteContext, endpointId: string): Promise<DeliveryRow> =>
  eventually(`a delivery to ${endpointId}`, async () => (await deliveriesOf(ctx, endpointId))[0]);

/** Until the delivery is in `status` with `attempts` attempts recorded. */
export function deliveryReaches(
  ctx: WebhookSuiteContext,
  deliveryId: string,
  status: string,
  attempts: number,
  timeoutMs = 5000,
): Promise<DeliveryRow> {
  return eventually(
    `delivery ${deliveryId} ${status} after ${attempts} attempts`,
    async () => {
      const [row] = await ctx.env.db.sql<DeliveryRow[]>`select * from webhook_deliveries where id = ${deliveryId}`;
      return row && row.status === status && row.attempts === attempts ? row : null;
    },
    timeoutMs,
  );
}
