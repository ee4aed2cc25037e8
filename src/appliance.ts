import type { FastifyInstance } from 'fastify';
import { registerApiKeyAuth } from './http/auth.js';
import { createServer } from './http/server.js';
import { registerRootRoutes } from './http/root.routes.js';
import type { Config } from './config/config.js';
import type { Secrets } from './config/secrets.js';
import { dataPaths } from './config/paths.js';
import { systemClock, type Clock } from './core/clock.js';
import type { Logger } from './core/logger.js';
import { connect, type Sql } from './db/connect.js';
import { ManagedCluster } from './db/managed-cluster.js';
import { migrate } from './db/migrate.js';
import { Idempotency } from './idempotency/service.js';
import { Scheduler } from './jobs/scheduler.js';
import { registerStreamRoutes } from './streams/routes.js';
import { SHARED_SCHEMAS } from './streams/schemas.js';
import { StreamsService } from './streams/service.js';
import { WebhookDispatcher, type DispatcherOptions } from './webhooks/dispatcher.worker.js';
import { registerWebhookRoutes } from './webhooks/routes.js';
import { WEBHOOK_SCHEMAS } from './webhooks/schemas.js';
import { WebhooksService } from './webhooks/service.js';
import { systemLookup, type TargetPolicy } from './webhooks/ssrf.js';

export interface ApiDeps {
  sql: Sql;
  config: Config;
  secrets: Secrets;
  clock: Clock;
  logger: Logger;
}

export interface Api {
  app: FastifyInstance;
  streams: StreamsService;
  idempotency: Idempotency;
  webhooks: WebhooksService;
}

/** Where webhooks may go: the operator's setting, and the system's DNS. */
export const webhookPolicy = (config: Config): TargetPolicy => ({ allowPrivate: config.allowPrivateWebhooks, lookup: systemLookup });

/** The HTTP API over a ready database; tests drive it with `app.inject`. */
export async function createApi(deps: ApiDeps): Promise<Api> {
  const app = await createServer({ logger: deps.logger });
  for (const schema of [...SHARED_SCHEMAS, ...WEBHOOK_SCHEMAS]) app.addSchema(schema);
  registerApiKeyAuth(app, deps.sql);
  const idempotency = new Idempotency(deps.sql, deps.clock, deps.secrets.data_key);
  // Ingest arrives with the live pipeline; until a node answers, nothing is ready to publish to.
  const streams = new StreamsService({ sql: deps.sql, clock: deps.clock, config: deps.config, idempotency, nodeReady: () => false });
  registerRootRoutes(app, deps.config.publicUrls.base_url, async () => {
    await deps.sql`select 1`;
    return true;
  });
  registerStreamRoutes(app, streams);
  const webhooks = new WebhooksService({ sql: deps.sql, clock: deps.clock, policy: webhookPolicy(deps.config) });
  registerWebhookRoutes(app, webhooks);
  await app.ready();
  return { app, streams, idempotency, webhooks };
}

export function managedCluster(config: Config, secrets: Secrets, onProgress?: (line: string) => void): ManagedCluster {
  const paths = dataPaths(config.dataDir);
  return new ManagedCluster({
    dir: paths.postgres,
    port: config.ports.postgres,
    password: secrets.postgres_password,
    logFile: paths.postgresLog,
    binDir: config.postgresBinDir,
    onProgress,
  });
}

export interface RunningAppliance {
  api: Api;
  stop(): Promise<void>;
}

/**
 * The composition root: database (managed or external), migrations, API, jobs.
 * Each start pushes its stop; stop runs them in reverse order.
 */
export async function startAppliance(opts: {
  config: Config;
  secrets: Secrets;
  logger: Logger;
  clock?: Clock;
  onProgress?: (line: string) => void;
  /** Dispatcher tuning (tests: a shorter receiver timeout, a faster poll). */
  webhooks?: Pick<DispatcherOptions, 'timeoutMs' | 'pollMs' | 'perEndpoint' | 'maxInFlight'>;
}): Promise<RunningAppliance> {
  const { config, secrets, logger } = opts;
  const clock = opts.clock ?? systemClock;
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) {
      try {
        await s();
      } catch (err) {
        logger.error({ err }, 'error while stopping');
      }
    }
  };
  try {
    let url = config.databaseUrl;
    if (!url) {
      const cluster = managedCluster(config, secrets, opts.onProgress);
      await cluster.init();
      await cluster.start();
      stops.push(() => cluster.stop());
      url = cluster.url;
    }
    const sql = connect(url, { max: 20 });
    stops.push(() => sql.end({ timeout: 5 }));
    const applied = await migrate(sql);
    if (applied.length) logger.info({ applied }, 'migrations applied');

    const api = await createApi({ sql, config, secrets, clock, logger });
    stops.push(() => api.app.close());

    const scheduler = new Scheduler(sql, logger.child({ domain: 'jobs' }));
    scheduler.add({ name: 'reservation-expiry', schedule: `*/${config.expiryCheckSeconds} * * * * *`, lockKey: 7_302_001, run: () => api.streams.expireReservations() });
    scheduler.add({ name: 'idempotency-purge', schedule: '17 * * * *', lockKey: 7_302_002, run: () => api.idempotency.purge() });
    scheduler.add({ name: 'webhook-deliveries-purge', schedule: '23 * * * *', lockKey: 7_302_003, run: () => api.webhooks.purgeDeliveries() });
    stops.push(() => scheduler.stop());

    // No advisory lock: dispatchers on several nodes share the work row by row (SKIP LOCKED).
    const dispatcher = new WebhookDispatcher({ sql, clock, logger, policy: webhookPolicy(config), ...opts.webhooks });
    await dispatcher.start();
    stops.push(() => dispatcher.stop());

    await api.app.listen({ host: config.listenHost, port: config.ports.api });
    opts.onProgress?.(`API listening on ${config.publicUrls.base_url}`);
    return { api, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
