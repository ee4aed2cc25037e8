import { createRequire } from 'node:module';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { templateEnvironment, shippedFile } from '../../../core/resources.js';
import { loadAssets, registerAssetRoute, type AssetSource } from '../../../platform/http/static-assets.js';
import type { DashboardAccess } from './access.js';
import { Overview, SeriesParams, StreamSeries } from './schemas.js';
import type { DashboardService } from './service.js';

import type { CertificateHealth } from '../../../platform/tls/health.js';

/** Whether each part answers now (what `/healthz` reports). */
export type PartsHealth = () => Promise<Record<string, boolean>>;

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** The dashboard's script and style, and uPlot's (no build step: served as they are in node_modules). */
function sources(): Record<'script' | 'css' | 'uplot' | 'uplot_css', AssetSource> {
  const uplot = (file: string) => createRequire(import.meta.url).resolve(`uplot/dist/${file}`);
  return {
    script: { file: shippedFile('dashboard', 'dashboard.js'), name: (h) => `dashboard.${h}.js`, contentType: JS },
    css: { file: shippedFile('dashboard', 'dashboard.css'), name: (h) => `dashboard.${h}.css`, contentType: CSS },
    uplot: { file: uplot('uPlot.iife.min.js'), name: (h) => `uPlot.${h}.min.js`, contentType: JS },
    uplot_css: { file: uplot('uPlot.min.css'), name: (h) => `uPlot.${h}.min.css`, contentType: CSS },
  };
}

/**
 * Own scripts and styles only; stills from the CDN (any origin: the page does not know it);
 * data from the same site. Never framed.
 */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  'img-src * data:',
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The operator dashboard on the player site: `GET /dashboard` (the page: the same for everyone,
 * no data), its assets, and the data under `/dashboard/api/`, which answers only with the operator
 * token (`Authorization: Bearer svcop_...`). Hidden from the OpenAPI description: it is the
 * appliance owner's, not an API client's.
 */
export const dashboardRoutes: FastifyPluginAsync<{
  service: DashboardService;
  access: DashboardAccess;
  health: PartsHealth;
  /** The served certificate on a node with TLS. */
  certificate?: (() => CertificateHealth | null) | undefined;
}> = async (app, { service, access, health, certificate }) => {
  const assets = await loadAssets(sources(), '/dashboard/assets/');
  const page = templateEnvironment('page').render('dashboard/page.njk', { assets: assets.urls });

  app.get('/dashboard', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', CSP)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .send(page),
  );
  registerAssetRoute(app, '/dashboard/assets', assets, 'No such dashboard asset.');

  // The token is checked on arrival: a wrong one learns nothing, not even whether a stream exists.
  const onRequest = async (request: FastifyRequest) => access.check(request.headers.authorization);
  const personal = { 'cache-control': 'no-store' };
  app.get(
    '/dashboard/api/overview',
    { onRequest, schema: { hide: true, response: { 200: Overview } } },
    async (_request, reply) =>
      reply.headers(personal).send(await service.overview(await health(), certificate?.() ?? null)),
  );
  app.get<{ Params: { id: string } }>(
    '/dashboard/api/streams/:id/series',
    { onRequest, schema: { hide: true, params: SeriesParams, response: { 200: StreamSeries } } },
    async (request, reply) => reply.headers(personal).send(await service.series(request.params.id)),
  );
};
