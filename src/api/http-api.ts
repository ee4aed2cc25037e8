import type { FastifyInstance } from 'fastify';
import { registerApiKeyAuth } from '../domains/ledger/accounts/auth.js';
import type { ApiKeys } from '../domains/ledger/accounts/key-cache.js';
import { registerAttendanceRoutes } from '../domains/audience/attendance/routes.js';
import { ATTENDANCE_SCHEMAS } from '../domains/audience/attendance/schemas.js';
import type { AttendanceService } from '../domains/audience/attendance/service.js';
import { registerBanRoutes } from '../domains/audience/bans/routes.js';
import { BAN_SCHEMAS } from '../domains/audience/bans/schemas.js';
import type { BansService } from '../domains/audience/bans/service.js';
import { registerChatOwnerRoutes } from '../domains/audience/chat/routes.js';
import { CHAT_SCHEMAS } from '../domains/audience/chat/schemas.js';
import type { ChatService } from '../domains/audience/chat/service.js';
import type { DashboardAccess } from '../domains/surfaces/dashboard/access.js';
import { registerDashboardRoutes } from '../domains/surfaces/dashboard/routes.js';
import type { DashboardService } from '../domains/surfaces/dashboard/service.js';
import type { EmbedService } from '../domains/surfaces/embed/service.js';
import { registerModeratorRoutes } from '../domains/audience/moderators/routes.js';
import { MODERATOR_SCHEMAS } from '../domains/audience/moderators/schemas.js';
import type { ModeratorsService } from '../domains/audience/moderators/service.js';
import { IDENTITY_SCHEMAS } from '../domains/audience/identity/schemas.js';
import { EMBED_SCHEMAS } from '../domains/surfaces/embed/schemas.js';
import { registerUsageRoutes } from '../domains/ledger/billing/routes.js';
import type { BillingService } from '../domains/ledger/billing/service.js';
import { BalanceEventData, Usage } from '../domains/ledger/billing/schemas.js';
import { registerEmbedRoutes } from '../domains/surfaces/embed/routes.js';
import { registerIngestHooks, type PublisherGate } from '../domains/engine/live/hooks.routes.js';
import { registerPlaybackRoutes } from '../domains/streams/playback.routes.js';
import { registerPlayerRoutes } from '../domains/surfaces/player/routes.js';
import { registerRecordingRoutes } from '../domains/engine/recordings/routes.js';
import type { RecordingsService } from '../domains/engine/recordings/service.js';
import { registerStreamRoutes } from '../domains/streams/routes.js';
import { SHARED_SCHEMAS } from '../domains/streams/schemas.js';
import type { StreamsService } from '../domains/streams/service.js';
import { registerWhipRoutes } from '../domains/engine/whip/routes.js';
import type { WhipService } from '../domains/engine/whip/service.js';
import { registerWebhookRoutes } from '../domains/back-office/webhooks/routes.js';
import { WEBHOOK_SCHEMAS } from '../domains/back-office/webhooks/schemas.js';
import { webhooksDescription } from '../domains/back-office/webhooks/openapi.js';
import type { WebhooksService } from '../domains/back-office/webhooks/service.js';
import type { Logger } from '../core/logger.js';
import type { Sql } from '../platform/db/connect.js';
import { createServer, type ServerOptions } from '../platform/http/server.js';
import { registerRootRoutes, type HealthCheck } from './root.routes.js';

/** The services whose routes make the API. */
export interface ApiServices {
  billing: BillingService;
  streams: StreamsService;
  attendance: AttendanceService;
  recordings: RecordingsService;
  webhooks: WebhooksService;
  embed: EmbedService;
  bans: BansService;
  chat: ChatService;
  moderators: ModeratorsService;
  dashboard: DashboardService;
  dashboardAccess: DashboardAccess;
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

/** Every route of the API on one Fastify server, ready to listen or to be injected into. */
export async function createHttpApi(opts: HttpApiOptions): Promise<FastifyInstance> {
  const { sql, services } = opts;
  const app = await createServer({
    logger: opts.logger,
    trustedProxies: opts.trustedProxies,
    observe: opts.observe,
    openapi: { servers: [{ url: opts.baseUrl, description: 'This appliance' }], webhooks: webhooksDescription() },
  });
  for (const schema of [
    ...SHARED_SCHEMAS,
    ...WEBHOOK_SCHEMAS,
    ...EMBED_SCHEMAS,
    ...IDENTITY_SCHEMAS,
    ...BAN_SCHEMAS,
    ...MODERATOR_SCHEMAS,
    ...ATTENDANCE_SCHEMAS,
    ...CHAT_SCHEMAS,
    Usage,
    BalanceEventData,
  ])
    app.addSchema(schema);
  registerApiKeyAuth(app, opts.apiKeys);
  app.addHook('onClose', () => opts.apiKeys.stop());
  const health = opts.health ?? (async () => ({ database: await databaseAnswers(sql) }));
  await registerRootRoutes(app, opts.baseUrl, health);
  registerStreamRoutes(app, services.streams);
  registerPlaybackRoutes(app, services.streams);
  registerAttendanceRoutes(app, services.attendance);
  registerRecordingRoutes(app, services.recordings, services.streams);
  await registerEmbedRoutes(app, services.embed, services.chat);
  await registerPlayerRoutes(
    app,
    { embed: (id, address) => services.embed.read(id, address) },
    undefined,
    opts.whip?.baseUrl,
  );
  if (opts.ingestHooks)
    registerIngestHooks(app, opts.ingestHooks.token, opts.ingestHooks.gate, opts.ingestHooks.localHost);
  if (opts.whip) await registerWhipRoutes(app, opts.whip.service, opts.whip.baseUrl);
  registerWebhookRoutes(app, services.webhooks);
  registerUsageRoutes(app, services.billing);
  registerBanRoutes(app, services.bans);
  registerChatOwnerRoutes(app, services.chat);
  registerModeratorRoutes(app, services.moderators);
  await registerDashboardRoutes(app, services.dashboard, services.dashboardAccess, health);
  await app.ready();
  return app;
}
