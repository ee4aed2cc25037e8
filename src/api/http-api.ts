import type { FastifyInstance } from 'fastify';
import { registerApiKeyAuth } from '../domains/ledger/accounts/auth.js';
import type { ApiKeys } from '../domains/ledger/accounts/key-cache.js';
import { usageRoutes } from '../domains/ledger/billing/routes.js';
import type { BillingService } from '../domains/ledger/billing/service.js';
import { streamRoutes } from '../domains/streams/routes.js';
import { channelRoutes } from '../domains/streams/channels/routes.js';
import type { ChannelsService } from '../domains/streams/channels/service.js';
import { playbackRoutes } from '../domains/streams/playback.routes.js';
import type { StreamsService } from '../domains/streams/service.js';
import { hooksPath, ingestHooks, type PublisherGate } from '../domains/engine/live/hooks.routes.js';
import { bucketSourceRoutes } from '../domains/engine/recordings/source.routes.js';
import { whipPath, whipRoutes } from '../domains/engine/whip/routes.js';
import type { WhipService } from '../domains/engine/whip/service.js';
import { recordingRoutes } from '../domains/engine/recordings/routes.js';
import type { RecordingsService } from '../domains/engine/recordings/service.js';
import { thumbnailRoutes } from '../domains/engine/recordings/thumbnails.routes.js';
import type { ThumbnailsService } from '../domains/engine/recordings/thumbnails.js';
import { attendanceRoutes } from '../domains/audience/attendance/routes.js';
import type { AttendanceService } from '../domains/audience/attendance/service.js';
import { banRoutes } from '../domains/audience/bans/routes.js';
import type { BansService } from '../domains/audience/bans/service.js';
import { chatOwnerRoutes, chatPublicRoutes } from '../domains/audience/chat/routes.js';
import type { ChatService } from '../domains/audience/chat/service.js';
import { outputRoutes } from '../domains/engine/outputs/routes.js';
import type { OutputsService } from '../domains/engine/outputs/service.js';
import { moderatorRoutes } from '../domains/audience/moderators/routes.js';
import type { ModeratorsService } from '../domains/audience/moderators/service.js';
import { webhookRoutes } from '../domains/back-office/webhooks/routes.js';
import { webhooksDescription } from '../domains/back-office/webhooks/openapi.js';
import type { WebhooksService } from '../domains/back-office/webhooks/service.js';
import { embedRoutes } from '../domains/surfaces/embed/routes.js';
import type { EmbedService } from '../domains/surfaces/embed/service.js';
import { playerRoutes } from '../domains/surfaces/player/routes.js';
import { dashboardRoutes } from '../domains/surfaces/dashboard/routes.js';
import type { DashboardAccess } from '../domains/surfaces/dashboard/access.js';
import type { DashboardService } from '../domains/surfaces/dashboard/service.js';
import { EDGE_API_PREFIX, edgeRoutes } from '../domains/ledger/edges/routes.js';
import type { EdgesService } from '../domains/ledger/edges/service.js';
import type { NodeDirectory } from '../domains/ledger/nodes/directory.js';
import { NODE_API_PREFIX, nodeRoutes } from '../domains/ledger/nodes/routes.js';
import type { NodesService } from '../domains/ledger/nodes/service.js';
import type { Logger } from '../core/logger.js';
import type { Sql } from '../platform/db/connect.js';
import { createServer, type ServerOptions } from '../platform/http/server.js';
import { COMPONENTS } from './components.js';
import { rootRoutes, type CertificateCheck, type HealthCheck } from './root.routes.js';
import { anyOrigin, internal, keyed, mount, open, plugin, type Mount } from './scopes.js';

/** The services whose routes make the API. */
export interface ApiServices {
  billing: BillingService;
  streams: StreamsService;
  channels: ChannelsService;
  attendance: AttendanceService;
  recordings: RecordingsService;
  thumbnails: ThumbnailsService;
  webhooks: WebhooksService;
  embed: EmbedService;
  bans: BansService;
  chat: ChatService;
  moderators: ModeratorsService;
  outputs: OutputsService;
  dashboard: DashboardService;
  dashboardAccess: DashboardAccess;
  edges: EdgesService;
  nodes: NodesService;
  nodeDirectory: NodeDirectory;
}

export interface HttpApiOptions {
  sql: Sql;
  logger: Logger;
  baseUrl: string;
  /** Addresses whose `X-Forwarded-For` is believed (nginx on this machine). */
  trustedProxies: string[];
  services: ApiServices;
  /** API keys as this node knows them (cached; see ApiKeys); stopped when the app closes. */
  apiKeys: ApiKeys;
  /** nginx's publish hooks, on nodes that run ingest. */
  /** `localHost`: where nginx reaches this process when the appliance listens on one address only. */
  ingestHooks?: { token: string; gate: PublisherGate; localHost: string };
  /** WHIP ingest at the path of `whip_url`, on nodes that run ingest. */
  whip?: { service: WhipService; baseUrl: string };
  /** What `/healthz` reports; without it, whether the database answers `select 1` within a second. */
  health?: HealthCheck;
  /** The served certificate, reported by `/healthz` (nodes with TLS). */
  certificate?: CertificateCheck;
  /** Told of every answered request (metrics). */
  observe?: ServerOptions['observe'];
}

/** Whether the database answers within a second (a frozen server does not answer at all). */
async function databaseAnswers(sql: Sql): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), 1000)));
  const answered = sql`select 1`.then(
    () => true,
    () => false,
  );
  const ok = await Promise.race([answered, late]);
  clearTimeout(timer);
  return ok;
}

/**
 * Every route of the API, group by group: the scope each answers in, top to bottom in the order
 * the API reference lists the operations (which is why the keyed API comes in two groups). Ingest
 * hooks and WHIP only on nodes that run ingest.
 */
function mountTable(opts: HttpApiOptions, health: HealthCheck): (Mount | undefined)[] {
  const { services, ingestHooks: hooks, whip } = opts;
  return [
    { scope: open, routes: [plugin(rootRoutes, { baseUrl: opts.baseUrl, health, certificate: opts.certificate })] },
    {
      scope: keyed,
      routes: [
        plugin(streamRoutes, { streams: services.streams }),
        plugin(channelRoutes, { channels: services.channels }),
        plugin(playbackRoutes, { streams: services.streams }),
        plugin(attendanceRoutes, { attendance: services.attendance }),
        plugin(recordingRoutes, { recordings: services.recordings, streams: services.streams }),
        plugin(thumbnailRoutes, { thumbnails: services.thumbnails }),
      ],
    },
    {
      scope: anyOrigin,
      prefix: '/v1/embed/',
      routes: [plugin(embedRoutes, { embed: services.embed }), plugin(chatPublicRoutes, { chat: services.chat })],
    },
    {
      scope: open,
      routes: [
        plugin(playerRoutes, {
          source: {
            embed: (id, address) => services.embed.read(id, address),
            channel: (id, address) => services.embed.channelPage(id, address),
          },
          whipUrl: whip?.baseUrl,
        }),
      ],
    },
    hooks && {
      scope: internal,
      prefix: hooksPath(hooks.token),
      routes: [
        plugin(ingestHooks, { gate: hooks.gate, localHost: hooks.localHost }),
        plugin(bucketSourceRoutes, { recordings: services.recordings }),
      ],
    },
    // WHIP brings its own scope: CORS with WHIP's headers and SDP bodies.
    whip && {
      scope: open,
      prefix: whipPath(whip.baseUrl),
      routes: [plugin(whipRoutes, { whip: whip.service, whipBase: whip.baseUrl })],
    },
    {
      scope: keyed,
      routes: [
        plugin(webhookRoutes, { webhooks: services.webhooks }),
        plugin(usageRoutes, { billing: services.billing }),
        plugin(banRoutes, { bans: services.bans }),
        plugin(chatOwnerRoutes, { chat: services.chat }),
        plugin(moderatorRoutes, { moderators: services.moderators }),
        plugin(outputRoutes, { outputs: services.outputs }),
      ],
    },
    {
      scope: open,
      routes: [
        plugin(dashboardRoutes, {
          service: services.dashboard,
          access: services.dashboardAccess,
          health,
          certificate: opts.certificate,
        }),
      ],
    },
    // Edges of this origin (docs/decisions.md, "Edge tier"): their own credential, checked per route.
    { scope: open, prefix: EDGE_API_PREFIX, routes: [plugin(edgeRoutes, { edges: services.edges })] },
    // Ingest nodes joining the cluster (docs/decisions.md, "Ingest nodes"): a one-use token.
    { scope: open, prefix: NODE_API_PREFIX, routes: [plugin(nodeRoutes, { nodes: services.nodes })] },
  ];
}

/** Every route of the API on one Fastify server, ready to listen or to be injected into. */
export async function createHttpApi(opts: HttpApiOptions): Promise<FastifyInstance> {
  const app = await createServer({
    logger: opts.logger,
    trustedProxies: opts.trustedProxies,
    observe: opts.observe,
    openapi: { servers: [{ url: opts.baseUrl, description: 'This appliance' }], webhooks: webhooksDescription() },
  });
  for (const schema of COMPONENTS) app.addSchema(schema);
  registerApiKeyAuth(app, opts.apiKeys);
  app.addHook('onClose', () => opts.apiKeys.stop());
  app.addHook('onClose', () => opts.services.nodeDirectory.stop());
  const health = opts.health ?? (async () => ({ database: await databaseAnswers(opts.sql) }));
  await mount(app, mountTable(opts, health));
  await app.ready();
  return app;
}
