import type { FastifyInstance } from 'fastify';
import { registerApiKeyAuth } from '../domains/accounts/auth.js';
import { createServer } from '../platform/http/server.js';
import { registerRootRoutes } from '../api/root.routes.js';
import { localHost, localUrlHost, type Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { dataPaths } from '../config/paths.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { connect, type Sql } from '../platform/db/connect.js';
import { ManagedCluster } from '../platform/db/managed-cluster.js';
import { migrate } from '../platform/db/migrate.js';
import { Idempotency } from '../domains/idempotency/service.js';
import { Scheduler } from '../platform/jobs/scheduler.js';
import { registerStreamRoutes } from '../domains/streams/routes.js';
import { SHARED_SCHEMAS } from '../domains/streams/schemas.js';
import { NO_LIVE, StreamsService, type LiveLink } from '../domains/streams/service.js';
import { NginxIngest } from '../platform/nginx/nginx.js';
import { hookToken, registerIngestHooks } from '../domains/live/hooks.routes.js';
import { LiveService } from '../domains/live/service.js';
import { ffprobeSegmentArgs, parseSegmentProbe } from '../platform/media/probe.js';
import { cdnSecret } from '../domains/cdn/addresses.js';
import { registerPlaybackRoutes } from '../domains/playback/routes.js';
import { run } from '../platform/process/run.js';
import { Supervisor } from '../platform/process/supervisor.js';
import { registerRecordingRoutes } from '../domains/recordings/routes.js';
import { RecordingsService } from '../domains/recordings/service.js';
import { WebhookDispatcher, type DispatcherOptions } from '../domains/webhooks/dispatcher.worker.js';
import { registerWebhookRoutes } from '../domains/webhooks/routes.js';
import { WEBHOOK_SCHEMAS } from '../domains/webhooks/schemas.js';
import { WebhooksService } from '../domains/webhooks/service.js';
import { systemLookup, type TargetPolicy } from '../domains/webhooks/ssrf.js';
import { registerEmbedRoutes } from '../domains/embed/routes.js';
import { registerPlayerRoutes } from '../domains/player/routes.js';
import { EmbedService } from '../domains/embed/service.js';
import { EMBED_SCHEMAS } from '../domains/embed/schemas.js';
import { ViewerCounter } from '../domains/viewers/counter.js';
import { ViewersService } from '../domains/viewers/service.js';

export interface ApiDeps {
  sql: Sql;
  config: Config;
  secrets: Secrets;
  clock: Clock;
  logger: Logger;
  /** The live pipeline of this node; without it the API serves streams but no ingest. */
  live?: LiveService;
}

export interface Api {
  app: FastifyInstance;
  streams: StreamsService;
  recordings: RecordingsService;
  idempotency: Idempotency;
  webhooks: WebhooksService;
  viewers: ViewersService;
  embed: EmbedService;
}

/** Where webhooks may go: the operator's setting, and the system's DNS. */
export const webhookPolicy = (config: Config): TargetPolicy => ({ allowPrivate: config.allowPrivateWebhooks, lookup: systemLookup });

/** The HTTP API over a ready database; tests drive it with `app.inject`. */
export async function createApi(deps: ApiDeps): Promise<Api> {
  const app = await createServer({ logger: deps.logger, trustedProxies: [localHost(deps.config)] });
  for (const schema of [...SHARED_SCHEMAS, ...WEBHOOK_SCHEMAS, ...EMBED_SCHEMAS]) app.addSchema(schema);
  registerApiKeyAuth(app, deps.sql);
  const idempotency = new Idempotency(deps.sql, deps.clock, deps.secrets.data_key);
  const { live } = deps;
  const secret = cdnSecret(deps.secrets.signing_key);
  const link: LiveLink = live ? { nodeReady: () => live.nodeReady, ended: (id) => live.ended(id) } : NO_LIVE;
  const counter = new ViewerCounter({ clock: deps.clock, intervalSeconds: deps.config.viewers.beat_interval_seconds, sampleSeconds: deps.config.viewers.sample_seconds });
  const viewers = new ViewersService({ sql: deps.sql, logger: deps.logger, counter });
  const streams = new StreamsService({ sql: deps.sql, clock: deps.clock, config: deps.config, idempotency, cdnSecret: secret, live: link, viewers });
  const embed = new EmbedService({
    sql: deps.sql,
    clock: deps.clock,
    cdnUrl: deps.config.publicUrls.cdn_url,
    cdnSecret: secret,
    viewers: { beacon: (id) => counter.beacon(id), beat: (id, beat) => counter.beat(id, beat), watchMinutes: (id) => viewers.watchMinutes(id) },
  });
  const recordings = new RecordingsService({ sql: deps.sql, config: deps.config, clock: deps.clock, logger: deps.logger.child({ domain: 'recordings' }), cdnSecret: secret });
  registerRootRoutes(app, deps.config.publicUrls.base_url, async () => {
    await deps.sql`select 1`;
    return true;
  });
  registerStreamRoutes(app, streams);
  registerPlaybackRoutes(app, streams);
  registerRecordingRoutes(app, recordings, streams);
  registerEmbedRoutes(app, embed);
  await registerPlayerRoutes(app, { embed: (id, address) => embed.read(id, address) });
  if (live) registerIngestHooks(app, hookToken(deps.secrets.signing_key), live);
  const webhooks = new WebhooksService({ sql: deps.sql, clock: deps.clock, policy: webhookPolicy(deps.config) });
  registerWebhookRoutes(app, webhooks);
  await app.ready();
  return { app, streams, recordings, idempotency, webhooks, viewers, embed };
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
  live: LiveService;
  nginx: NginxIngest;
  stop(): Promise<void>;
}

/** Where nginx reaches the ingest hooks: the API on this machine. */
export function hooksUrl(config: Config, secrets: Secrets): string {
  return `http://${localUrlHost(config)}:${config.ports.api}/internal/ingest/${hookToken(secrets.signing_key)}`;
}

export const probeSegment = (config: Config) => async (file: string) =>
  parseSegmentProbe(await run(config.live.ffprobe_path, ffprobeSegmentArgs(file), { stdoutOnly: true, timeoutMs: 10_000 }));

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
  const stops: { part: string; stop: () => Promise<unknown> }[] = [];
  const stop = async () => {
    for (const { part, stop: s } of stops.reverse()) {
      try {
        logger.debug({ part }, 'stopping');
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
      stops.push({ part: 'postgres', stop: () => cluster.stop() });
      url = cluster.url;
    }
    const sql = connect(url, { max: 20 });
    stops.push({ part: 'database connections', stop: () => sql.end({ timeout: 5 }) });
    const applied = await migrate(sql);
    if (applied.length) logger.info({ applied }, 'migrations applied');

    // Everything the supervisor started is stopped late, after the parts that stop their own children.
    const supervisor = new Supervisor();
    stops.push({ part: 'child processes', stop: () => supervisor.stopAll() });
    const nginx = new NginxIngest({ config, secret: cdnSecret(secrets.signing_key), hooksUrl: hooksUrl(config, secrets), logger: logger.child({ domain: 'nginx' }) });
    const live = new LiveService({ sql, config, clock, logger: logger.child({ domain: 'live' }), supervisor, ingest: nginx, probe: probeSegment(config) });

    const api = await createApi({ sql, config, secrets, clock, logger, live });
    stops.push({ part: 'api', stop: () => api.app.close() });
    await api.app.listen({ host: config.listenHost, port: config.ports.api });
    opts.onProgress?.(`API listening on ${config.publicUrls.base_url}`);

    // nginx asks the API about every publisher: it starts once the API answers.
    await nginx.start(supervisor);
    stops.push({ part: 'nginx', stop: () => nginx.stop() });
    opts.onProgress?.(`ingest listening on ${config.publicUrls.rtmp_url}, CDN on ${config.publicUrls.cdn_url}`);
    live.start();
    stops.push({ part: 'live workers', stop: () => live.stop() });

    const scheduler = new Scheduler(sql, logger.child({ domain: 'jobs' }));
    scheduler.add({ name: 'reservation-expiry', schedule: `*/${config.expiryCheckSeconds} * * * * *`, lockKey: 7_302_001, run: () => api.streams.expireReservations() });
    scheduler.add({ name: 'idempotency-purge', schedule: '17 * * * *', lockKey: 7_302_002, run: () => api.idempotency.purge() });
    scheduler.add({ name: 'webhook-deliveries-purge', schedule: '23 * * * *', lockKey: 7_302_003, run: () => api.webhooks.purgeDeliveries() });
    scheduler.add({ name: 'recordings', schedule: `*/${config.recordings.check_seconds} * * * * *`, lockKey: 7_302_004, run: () => api.recordings.processDue() });
    scheduler.add({ name: 'recording-retention', schedule: '41 * * * * *', lockKey: 7_302_005, run: () => api.recordings.expire() });
    stops.push({ part: 'jobs', stop: () => scheduler.stop() });
    // Every node samples and writes its own viewer counts (they add up): no cluster-wide lock.
    stops.push({ part: 'viewer counts', stop: api.viewers.start() });

    // No advisory lock: dispatchers on several nodes share the work row by row (SKIP LOCKED).
    const dispatcher = new WebhookDispatcher({ sql, clock, logger, policy: webhookPolicy(config), ...opts.webhooks });
    await dispatcher.start();
    stops.push({ part: 'webhook dispatcher', stop: () => dispatcher.stop() });
    return { api, live, nginx, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
