import type { FastifyInstance } from 'fastify';
import cors from '@fastify/cors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.js';
import { errorResponses } from '../../platform/http/schema-helpers.js';
import { routeNotFound } from '../../platform/http/server.js';
import { BeatQuery, Embed } from './schemas.js';
import type { EmbedService } from './service.js';

const tags = ['Public hosted-player endpoints'];
/** Any text names a stream or not: a malformed id is an unknown one (404, counted), not a 400 that tells ids apart. */
const EmbedParams = Type.Object({ id: Type.String({ maxLength: 200 }) }, { additionalProperties: false });

/**
 * Every answer under /v1/embed/, errors included, may be read by any site; credentials are never
 * allowed. Any OPTIONS there is a preflight, with or without `Origin`.
 */
const PUBLIC_CORS = {
  origin: '*',
  methods: 'GET, POST, OPTIONS',
  allowedHeaders: 'content-type',
  maxAge: 86400,
  strictPreflight: false,
};

/**
 * `GET /v1/embed/{id}` and `POST /v1/embed/{id}/beat`: no key, any origin, no cookies.
 * The address is the client's as nginx saw it (Fastify trusts forwarding only from loopback).
 */
export async function registerEmbedRoutes(app: FastifyInstance, embed: EmbedService): Promise<void> {
  await app.register(async (scope) => publicRoutes(scope, embed), { prefix: '/v1/embed/' });
}

/** The routes under /v1/embed/, in a scope of their own: its CORS hook never reaches keyed routes. */
async function publicRoutes(scope: FastifyInstance, embed: EmbedService): Promise<void> {
  await scope.register(cors, PUBLIC_CORS);
  // Unknown paths here are public answers too: their 404 goes through this scope's CORS hook.
  scope.setNotFoundHandler(routeNotFound);
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/:id',
    {
      schema: {
        summary: 'Public embed read',
        description:
          'What the hosted player needs, without a key, from any origin. Also served by nginx at `{player_url}/api/embed/{id}`, cached for one second, so a crowd costs the API one read per second per stream. An address that asks for more than 60 unknown ids in a minute gets `429 rate_limited` on every public endpoint until its minute is over.',
        tags,
        params: EmbedParams,
        response: { 200: Type.Ref(Embed), ...errorResponses('not_found', 'rate_limited') },
      },
    },
    async (request, reply) => {
      const { embed: body } = await embed.read(request.params.id, request.ip);
      return reply.header('cache-control', 'public, max-age=1').send(body);
    },
  );

  api.post(
    '/:id/beat',
    {
      schema: {
        summary: 'Viewer beat',
        description:
          'A hosted player reports its state: every `beacon.interval_seconds` (about 10% jitter) while its `u` is below `beacon.rate`, and stops when `beacon` is null. No body. Counted in memory and flushed per minute; nothing that identifies a person is stored. `204` also when the stream is over (not counted).',
        tags,
        params: EmbedParams,
        querystring: BeatQuery,
        response: { 204: Type.Null({ description: 'Counted (or the stream is over)' }), ...errorResponses('invalid_request', 'not_found', 'rate_limited') },
      },
    },
    async (request, reply) => {
      if (request.body !== undefined) throw new ApiError('invalid_request', 'A beat has no body: send `s`, `st` and `u` in the query.', { field: 'body' });
      await embed.beat(request.params.id, request.query, request.ip);
      return reply.code(204).send(null);
    },
  );
}
