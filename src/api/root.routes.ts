import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { renderIndex, renderReference, type OpenApiDocument } from './api-reference.js';
import { API_VERSION } from '../platform/http/openapi.js';

const Root = Type.Object({
  object: Type.Literal('api_root'),
  name: Type.String(),
  version: Type.String({ examples: [API_VERSION] }),
  docs_url: Type.String(),
  openapi_url: Type.String(),
  index_url: Type.String(),
});

/** `GET /` and what it links to: the reference, the OpenAPI description, a plain index. */
export function registerRootRoutes(app: FastifyInstance, baseUrl: string, health: () => Promise<boolean>): void {
  const tags = ['Meta'];
  const doc = () => app.swagger() as unknown as OpenApiDocument;

  app.withTypeProvider<TypeBoxTypeProvider>().get('/', { schema: { summary: 'API root', description: 'Links to the docs, the machine-readable description and an index.', tags, response: { 200: Root } } }, async () => ({
    object: 'api_root' as const,
    name: 'svc',
    version: API_VERSION,
    docs_url: `${baseUrl}/docs`,
    openapi_url: `${baseUrl}/openapi.json`,
    index_url: `${baseUrl}/index.txt`,
  }));
  app.get('/openapi.json', { schema: { summary: 'OpenAPI 3.1 description', tags } }, async () => doc());
  app.get('/docs', { schema: { summary: 'API reference (Markdown)', tags } }, async (_req, reply) =>
    reply.type('text/markdown; charset=utf-8').send(renderReference(doc())),
  );
  app.get('/index.txt', { schema: { summary: 'Plain index of operations', tags } }, async (_req, reply) =>
    reply.type('text/plain; charset=utf-8').send(renderIndex(doc())),
  );
  app.get('/healthz', { schema: { summary: 'Health check', description: '200 when the API and its database answer; 503 otherwise.', tags } }, async (_req, reply) => {
    const ok = await health();
    return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable' });
  });
}
