import type { FastifyPluginAsync } from 'fastify';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CertificateHealth } from '../platform/tls/health.js';
import { renderIndex, renderReference, type OpenApiDocument } from './api-reference.js';
import { API_VERSION } from '../platform/http/openapi.js';
import { ops } from './root.openapi.js';

const Root = Type.Object({
  object: Type.Literal('api_root'),
  name: Type.String(),
  version: Type.String({ examples: [API_VERSION] }),
  docs_url: Type.String(),
  openapi_url: Type.String(),
  index_url: Type.String(),
});

const PartHealth = Type.Union([Type.Literal('ok'), Type.Literal('down')]);

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  /** Each part this node runs: `database` always, `ingest` (nginx: RTMP and the CDN origin) on nodes that run it. */
  parts: Type.Record(Type.String(), PartHealth, { examples: [{ database: 'ok', ingest: 'ok' }] }),
  certificate: Type.Optional(CertificateHealth),
});

/** Whether each part answers now; a part this node does not run is absent. */
export type HealthCheck = () => Promise<Record<string, boolean>>;
/** The served certificate's state; null without TLS (or on a node that serves none). */
export type CertificateCheck = () => CertificateHealth | null;

/**
 * The interactive reference: Swagger UI from the npm package, every asset served by the API itself.
 * The policy keeps the page on this origin (and the API's public address, for "Try it out").
 */
const referenceCsp = (baseUrl: string) =>
  `default-src 'self'; connect-src 'self' ${new URL(baseUrl).origin}; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'self'`;

/** `GET /` and what it links to: the reference (Markdown and interactive), the OpenAPI description, a plain index. */
export const rootRoutes: FastifyPluginAsync<{
  baseUrl: string;
  health: HealthCheck;
  certificate?: CertificateCheck | undefined;
}> = async (app, { baseUrl, health, certificate }) => {
  const doc = () => app.swagger() as unknown as OpenApiDocument;

  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/',
    {
      schema: { ...ops.getApiRoot, response: { 200: Root } },
    },
    async () => ({
      object: 'api_root' as const,
      name: 'svc',
      version: API_VERSION,
      docs_url: `${baseUrl}/docs`,
      openapi_url: `${baseUrl}/openapi.json`,
      index_url: `${baseUrl}/index.txt`,
    }),
  );
  app.get('/openapi.json', { schema: { ...ops.getOpenApiDescription } }, async () => doc());
  app.get('/docs', { schema: { ...ops.getApiReferenceMarkdown } }, async (_req, reply) =>
    reply.type('text/markdown; charset=utf-8').send(renderReference(doc())),
  );
  await app.register(swaggerUi, {
    routePrefix: '/reference',
    staticCSP: referenceCsp(baseUrl),
    uiConfig: { deepLinking: true, tryItOutEnabled: false, displayOperationId: true },
    theme: { title: 'svc API reference' },
  });
  app.get('/index.txt', { schema: { ...ops.getOperationIndex } }, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').send(renderIndex(doc())),
  );
  const healthSchema = {
    ...ops.getHealth,
    response: {
      200: { ...Health, description: 'Every part answers' },
      503: {
        ...Health,
        description: '`parts` names what is down',
        examples: [{ status: 'unavailable', parts: { database: 'ok', ingest: 'down' } }],
      },
    },
  };
  app.get('/healthz', { schema: healthSchema }, async (_req, reply) => {
    const answers = await health();
    const served = certificate?.() ?? null;
    // An expired certificate: every https client refuses this node, which is as good as down.
    if (served) answers.tls = served.state !== 'expired';
    const ok = Object.values(answers).every(Boolean);
    const parts = Object.fromEntries(
      Object.entries(answers).map(([part, up]) => [part, up ? ('ok' as const) : ('down' as const)]),
    );
    const status = ok ? ('ok' as const) : ('unavailable' as const);
    return reply.code(ok ? 200 : 503).send({ status, parts, ...(served ? { certificate: served } : {}) });
  });
};
