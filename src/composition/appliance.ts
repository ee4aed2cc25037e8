import type { FastifyInstance } from 'fastify';
import { createHttpApi, type HttpApiOptions } from '../api/http-api.js';
import type { HealthCheck } from '../api/root.routes.js';
import { DEFAULT_STORAGE, localHost, metricsUrl, type Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { stopInReverse, type Stop } from '../core/stops.js';
import { ApiKeys } from '../domains/ledger/accounts/key-cache.js';
import { cdnSecret } from '../domains/ledger/cdn/addresses.js';
import { cdnViewerKey } from '../domains/ledger/cdnlog/viewer-id.js';
import { edgeKey } from '../domains/ledger/edges/credentials.js';
import { nodeCredential, nodeKey } from '../domains/ledger/nodes/credentials.js';
import { Repeater } from '../core/repeater.js';
import { OriginStore } from '../platform/storage/origin-store.js';
import { Spool } from '../platform/storage/spool.js';
import { hookToken } from '../domains/engine/live/hooks.routes.js';
import type { LiveService } from '../domains/engine/live/service.js';
import { NodeHeartbeat } from '../domains/ledger/nodes/heartbeat.js';
import { registerPrimary } from '../domains/ledger/nodes/queries.js';
import { recordClusterStorage, storageLocation } from '../domains/ledger/nodes/cluster-storage.js';
import { WhipService } from '../domains/engine/whip/service.js';
import { SrtService } from '../domains/engine/srt/service.js';
import { StillShelf } from '../domains/engine/thumbnails/shelf.js';
import { srtPassphraseKey } from '../platform/media/srt.js';
import { WebhookDispatcher, type DispatcherOptions } from '../domains/back-office/webhooks/dispatcher.worker.js';
import { connect, type Sql } from '../platform/db/connect.js';
import { managedCluster } from '../platform/db/managed-cluster.js';
import { migrate } from '../platform/db/migrate.js';
import { DatabaseMonitor } from '../platform/db/monitor.js';
import { ClusterWatchdog } from '../platform/db/watchdog.js';
import { Scheduler } from '../platform/jobs/scheduler.js';
import { freePorts } from '../platform/http/ports.js';
import type { ApiListeners } from '../platform/nginx/config.js';
import { NginxIngest, nginxWorkerUser } from '../platform/nginx/nginx.js';
import { protectDataDir } from '../platform/system/data-dir.js';
import { Supervisor } from '../platform/process/supervisor.js';
import { ApiWorkers } from './api-workers.js';
import { ApplianceMetrics } from './metrics.js';
import { ApplianceStorage, checkShipping, objectStore, slicesDir } from './storage.js';
import type { RecordingsDeps } from '../domains/engine/recordings/service.js';
import { SessionShipper } from '../domains/engine/live/session-shipper.js';
import { dataPaths } from '../config/paths.js';
import { startCertificates, type Certificates } from './certificates.js';
import type { Lookup } from '../platform/tls/preflight.js';
import {
  buildCdnLogReader,
  buildJobs,
  buildLive,
  localMedia,
  buildServices,
  hooksUrl,
  webhookPolicy,
  type Foundation,
  type MirroredNode,
  type Services,
} from './build.js';

export interface ApiDeps {
  sql: Sql;
  config: Config;
  secrets: Secrets;
  clock: Clock;
  logger: Logger;
  /** The live pipeline of this node; without it the API serves streams but no ingest. */
  live?: LiveService;
  /** WHIP ingest of this node (beside `live`). */
  whip?: WhipService;
  /** What `/healthz` reports (default: whether the database answers). */
  health?: HealthCheck;
  /** Told of every answered request (metrics). */
  observe?: HttpApiOptions['observe'];
  /** The served certificate (`/healthz`), on nodes with TLS. */
  certificate?: HttpApiOptions['certificate'];
  /** An API worker process: the appliance process's live link and viewer counts, mirrored. */
  mirrored?: MirroredNode;
  /** Object storage with the appliance process's spool. */
  storage?: RecordingsDeps['storage'];
}

export interface Api extends Services {
  app: FastifyInstance;
  /** This API's cache of API keys (stopped with the app). */
  apiKeys: ApiKeys;
}

/** The services and the HTTP API over a ready database; tests drive it with `app.inject`. */
export async function createApi(deps: ApiDeps): Promise<Api> {
  const services = buildServices(deps, deps.live, deps.mirrored, deps.storage);
  const apiKeys = new ApiKeys(deps.sql, deps.clock, deps.logger.child({ domain: 'accounts' }));
  const app = await createHttpApi({
    apiKeys,
    sql: deps.sql,
    logger: deps.logger,
    baseUrl: deps.config.publicUrls.base_url,
    trustedProxies: [localHost(deps.config), ...deps.config.trustedProxies],
    services,
    ingestHooks: deps.live && {
      token: hookToken(deps.secrets.signing_key),
      gate: deps.live,
      localHost: localHost(deps.config),
    },
    whip: deps.whip && { service: deps.whip, baseUrl: deps.config.publicUrls.whip_url },
    health: deps.health,
    certificate: deps.certificate,
    observe: deps.observe,
  });
  await apiKeys.start();
  await services.nodeDirectory.start();
  return { app, apiKeys, ...services };
}

/**
 * Where the API processes listen: `api_port` itself without workers, else free loopback ports.
 * Not the configured ports, which nginx binds after these listen: one in the ephemeral range is
 * free now and may be what the kernel offers.
 */
async function apiListeners(config: Config): Promise<ApiListeners> {
  if (config.apiWorkers === 0) return { mainPort: config.ports.api, workerPorts: [] };
  const [mainPort, ...workerPorts] = await freePorts(
    localHost(config),
    config.apiWorkers + 1,
    Object.values(config.ports),
  );
  return { mainPort: mainPort as number, workerPorts };
}

export interface RunningAppliance {
  api: Api;
  live: LiveService;
  whip: WhipService;
  nginx: NginxIngest;
  database: DatabaseMonitor;
  /** The managed cluster's watchdog; absent with an external database_url. */
  watchdog: ClusterWatchdog | null;
  /** This node's Prometheus metrics (served at `metrics_port` when set). */
  metrics: ApplianceMetrics;
  /** The API worker processes; null with `api_workers` 0. */
  workers: ApiWorkers | null;
  /** The served certificate; null without TLS. */
  certificates: Certificates | null;
  /** Object storage and its spool; null without (recordings in the data dir). */
  storage: ApplianceStorage | null;
  stop(): Promise<void>;
}

/** The longest pause between an ingest node's tries of a session slice the origin did not take. */
const ORIGIN_RETRY_MAX_MS = 5000;
/** Session slices an ingest node ships to the origin (without object storage): at most this much is lost with the node. */
export const ORIGIN_SLICE_SECONDS = 4;

/**
 * The composition root: database (managed or external), migrations, API, ingest, jobs.
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
  /** How the TLS preflight resolves the public names (tests: their names to loopback). */
  tlsLookup?: Lookup;
}): Promise<RunningAppliance> {
  const { config, secrets, logger } = opts;
  const clock = opts.clock ?? systemClock;
  const stops: Stop[] = [];
  const stop = stopInReverse(stops, logger);
  try {
    // First: a data dir from an older version is fixed before anything reads or writes in it.
    const worker = await nginxWorkerUser();
    protectDataDir(config.dataDir, worker);
    // Before anything starts: no certificate (a CA that cannot issue one, a bad file) stops the start here.
    const certificates = await startCertificates({
      config,
      logger,
      worker,
      lookup: opts.tlsLookup,
      onProgress: opts.onProgress,
    });
    if (certificates) stops.push({ part: 'certificates', stop: () => certificates.stop() });
    let url = config.databaseUrl;
    let watchdog: ClusterWatchdog | null = null;
    if (!url) {
      const cluster = managedCluster(config, secrets, opts.onProgress);
      await cluster.init();
      await cluster.start();
      stops.push({ part: 'postgres', stop: () => cluster.stop() });
      url = cluster.url;
      // Supervised like nginx: a postmaster that dies is started again (an external database is the operator's).
      const dog = new ClusterWatchdog({ cluster, logger: logger.child({ domain: 'postgres' }) });
      dog.start();
      stops.push({ part: 'postgres watchdog', stop: () => dog.stop() });
      watchdog = dog;
    }
    // While the database does not answer, requests are answered 503 at once and waits are cut.
    const database = new DatabaseMonitor({ url, logger: logger.child({ domain: 'database' }) });
    const sql = connect(url, { max: 20, available: () => database.available });
    database.watch(sql);
    database.start();
    stops.push({ part: 'database connections', stop: () => sql.end({ timeout: 5 }) });
    stops.push({ part: 'database monitor', stop: () => database.stop() });
    const applied = await migrate(sql);
    if (applied.length) logger.info({ applied }, 'migrations applied');
    const foundation: Foundation = { sql, config, secrets, clock, logger };
    // The primary is a node of its own cluster (an ingest node's row was made when it was added).
    if (config.node.id && config.node.name && config.node.role === 'primary') {
      await registerPrimary(sql, config.node.id, config.node.name, clock.now());
      await recordClusterStorage(sql, storageLocation(config.storage), config.node.id, clock.now());
    }
    // An ingest node ships its sessions where the primary's recorder reads them, or does not start.
    if (config.node.role === 'ingest') await checkShipping(sql, config, logger);
    // Object storage answers before anything records: a wrong bucket or key stops the start, naming it.
    const bucket = objectStore(config, secrets);
    const storage = bucket && new ApplianceStorage(bucket, config, clock, logger.child({ domain: 'storage' }));
    if (storage) {
      await storage.start();
      stops.push({ part: 'object storage spool', stop: () => storage.stop() });
      opts.onProgress?.(`object storage: ${storage.store.where}`);
    }

    // Everything the supervisor started is stopped late, after the parts that stop their own children.
    const supervisor = new Supervisor();
    stops.push({ part: 'child processes', stop: () => supervisor.stopAll() });
    const listeners = await apiListeners(config);
    const nginx = new NginxIngest({
      config,
      secret: cdnSecret(secrets.signing_key),
      viewerKey: cdnViewerKey(secrets.signing_key),
      edgeKey: edgeKey(secrets.signing_key),
      nodeKey: nodeKey(secrets.signing_key),
      hooksUrl: hooksUrl(config, secrets, listeners.mainPort),
      api: listeners,
      logger: logger.child({ domain: 'nginx' }),
      worker,
    });
    // An ingest node's live media go to the primary's origin; the primary's own stay on its disk.
    const media =
      config.node.role === 'ingest' && config.node.id && config.node.originUrl
        ? new OriginStore({
            url: config.node.originUrl,
            credential: nodeCredential(nodeKey(secrets.signing_key), config.node.id),
            timeoutMs: 8000,
          })
        : localMedia(config);
    if (media instanceof OriginStore) stops.push({ part: 'origin connections', stop: async () => media.close() });
    const live = buildLive(foundation, { supervisor, ingest: nginx, media });

    // Known away: say so at once (the monitor notices its return within half a second); else probe now.
    const health: HealthCheck = async () => ({
      database: database.available && (await database.check()),
      ingest: nginx.ready,
    });
    const whip = new WhipService({ config, logger: logger.child({ domain: 'whip' }), supervisor, live });
    const metrics = new ApplianceMetrics();
    const api = await createApi({
      ...foundation,
      live,
      whip,
      health,
      certificate: certificates ? () => certificates.health() : undefined,
      observe: metrics.observeRequest,
      storage: storage ? { store: storage.store, spool: storage.spool } : undefined,
    });
    stops.push({ part: 'api', stop: () => api.app.close() });
    // Browsers' sessions end before the API stops answering; their relays leave nginx with them.
    stops.push({ part: 'whip sessions', stop: () => whip.stopAll() });
    // With workers or TLS, nginx faces the world and this process answers on loopback only.
    await api.app.listen({
      host: listeners.workerPorts.length || config.tls ? localHost(config) : config.listenHost,
      port: listeners.mainPort,
    });
    let workers: ApiWorkers | null = null;
    if (listeners.workerPorts.length) {
      workers = new ApiWorkers({
        config,
        secrets,
        databaseUrl: url,
        ports: listeners.workerPorts,
        supervisor,
        logger: logger.child({ domain: 'api workers' }),
        readings: { nodeReady: () => live.nodeReady, viewers: api.viewers },
        ended: (id) => live.ended(id),
        observe: metrics.observeRequest,
      });
      // Stopped after nginx (which stops first), before the database they use.
      stops.push({ part: 'api workers', stop: () => workers?.stop() ?? Promise.resolve() });
      await workers.start();
    }
    const served = workers ? ` (through nginx: ${listeners.workerPorts.length} API worker processes)` : '';
    opts.onProgress?.(`API listening on ${config.publicUrls.base_url}${served}`);

    // Before nginx serves: a refusal written by a patch that this node missed or lost is made again.
    const refused = await api.publicRefusals.reconcile();
    if (refused) logger.info({ refused }, 'public addresses refused for closed or members-only players');
    // Then on every node for its own nginx: closings by time and by watch minutes, other nodes' patches.
    stops.push({ part: 'public refusals', stop: api.publicRefusals.start() });
    // The ingest nodes this origin's nginx lets write (docs/decisions.md, "Ingest nodes"): made again
    // from the database now and every few seconds, so a join or removal on another API node reaches it.
    if (config.node.role === 'primary') {
      await api.nodes.syncAllowed();
      const nodesAccess = new Repeater(
        () => api.nodes.syncAllowed().catch((err: unknown) => logger.debug({ err }, 'node access not synced')),
        5000,
      );
      nodesAccess.start();
      stops.push({ part: 'node access', stop: () => nodesAccess.stop() });
    }
    // The edges this origin's nginx lets fetch, likewise (docs/decisions.md, "Edge tier").
    await api.edges.reconcile();
    stops.push({ part: 'edges', stop: api.edges.start(logger.child({ domain: 'edges' })) });

    // nginx asks the API about every publisher: it starts once the API answers.
    await nginx.start(supervisor);
    stops.push({ part: 'nginx', stop: () => nginx.stop() });
    opts.onProgress?.(`ingest listening on ${config.publicUrls.rtmp_url}, CDN on ${config.publicUrls.cdn_url}`);
    await live.start();
    stops.push({ part: 'live workers', stop: () => live.stop() });
    // An ingest node without object storage ships its publish sessions to the origin, through a spool
    // of its own: the primary's recorder joins them (docs/decisions.md, "One broadcast across a node's death").
    let sessionSpool = storage?.spool ?? null;
    if (!sessionSpool && media instanceof OriginStore) {
      const spool = new Spool({
        dir: dataPaths(config.dataDir).spool,
        store: media,
        maxBytes: DEFAULT_STORAGE.spoolMaxMb * 1024 * 1024,
        logger: logger.child({ domain: 'sessions' }),
        // The origin is on the cluster's own network: asked again often, so that slices waiting
        // out its restart follow within seconds of its return, before the recorder stops waiting.
        retry: { minTimeoutMs: 500, maxTimeoutMs: ORIGIN_RETRY_MAX_MS },
      });
      await spool.start();
      stops.push({ part: 'session spool', stop: () => spool.stop() });
      sessionSpool = spool;
    }
    if (sessionSpool) {
      // Publish sessions go to the bucket (or the origin) while they grow: this node's live streams, followed.
      // To the origin on the cluster's own network, slices are small and frequent: a death loses less.
      const sliceSeconds = config.storage?.sliceSeconds ?? ORIGIN_SLICE_SECONDS;
      const shipper = new SessionShipper({
        spool: sessionSpool,
        recordDir: dataPaths(config.dataDir).ingest,
        workDir: slicesDir(config),
        sliceSeconds,
        logger: logger.child({ domain: 'storage' }),
      });
      const follow = setInterval(
        () => void shipper.sync(live.ingestReadings().map((r) => r.streamId)),
        sliceSeconds * 1000,
      );
      stops.push({
        part: 'session shipper',
        stop: async () => {
          clearInterval(follow);
          await shipper.stopAll();
        },
      });
    }
    if (config.node.id) {
      const heartbeat = new NodeHeartbeat({
        sql,
        clock,
        logger: logger.child({ domain: 'nodes' }),
        nodeId: config.node.id,
        describe: () => ({
          rtmp_url: config.publicUrls.rtmp_url,
          whip_url: config.publicUrls.whip_url,
          srt_host: config.publicUrls.srt_host,
          cores: config.capacity.cores,
          reserved_cores: config.capacity.reservedCores,
          ingest_ready: live.nodeReady,
        }),
      });
      await heartbeat.start();
      stops.push({ part: 'node heartbeat', stop: () => heartbeat.stop() });
    }
    // SRT publishers reach nginx through a relay per stream: listening once nginx and the gate answer.
    const srt = new SrtService({
      ...foundation,
      logger: logger.child({ domain: 'srt' }),
      supervisor,
      live,
      passphraseKey: srtPassphraseKey(secrets.signing_key),
    });
    await srt.start();
    stops.push({ part: 'srt listeners', stop: () => srt.stop() });

    // Every node samples and writes its own viewer counts and attendance (they add up): no cluster-wide lock.
    stops.push({ part: 'viewer counts', stop: api.viewers.start() });
    stops.push({ part: 'attendance', stop: api.attendance.start() });
    // Every node fans out the chat of its own readers; events reach it through PostgreSQL.
    stops.push({ part: 'chat', stop: api.chat.start() });

    // The cluster's jobs and webhook dispatch run on primaries (API nodes): an ingest node has
    // neither the origin's files nor its log (docs/decisions.md, "Ingest nodes").
    if (config.node.role === 'primary') {
      const scheduler = new Scheduler(sql, clock, logger.child({ domain: 'jobs' }));
      for (const job of buildJobs(
        config,
        api,
        buildCdnLogReader(foundation, () => nginx.reopenLogs()),
      ))
        await scheduler.add(job);
      stops.push({ part: 'jobs', stop: () => scheduler.stop() });
      // No advisory lock: dispatchers on several nodes share the work row by row (SKIP LOCKED).
      const dispatcher = new WebhookDispatcher({
        sql,
        clock,
        logger,
        policy: webhookPolicy(config),
        onAttempt: metrics.observeWebhook,
        ...opts.webhooks,
      });
      await dispatcher.start();
      stops.push({ part: 'webhook dispatcher', stop: () => dispatcher.stop() });
      // Each primary moves the ended streams' stills it holds (the origin's) to the bucket.
      if (storage) {
        const shelf = new StillShelf({
          sql,
          thumbsDir: dataPaths(config.dataDir).thumbs,
          spool: storage.spool,
          logger: logger.child({ domain: 'thumbnails' }),
        });
        stops.push({ part: 'stills to object storage', stop: shelf.start() });
      }
    }

    metrics.attach({
      sql,
      clock,
      logger: logger.child({ domain: 'metrics' }),
      live,
      counter: api.counter,
      chat: api.chat,
      nginx,
      certificate: certificates && (() => certificates.status()),
      capacity: config.capacity,
      storage: storage && { bucket: config.storage!.bucket, readings: () => storage.spool.readings() },
    });
    if (config.metrics.port !== null) {
      stops.push({ part: 'metrics', stop: await metrics.listen(config.metrics.host, config.metrics.port) });
      opts.onProgress?.(`metrics at ${metricsUrl(config)}`);
    }
    return { api, live, whip, nginx, database, watchdog, metrics, workers, certificates, storage, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
