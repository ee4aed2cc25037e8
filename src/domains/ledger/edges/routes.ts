import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ReaderPosition } from '../cdnlog/queries.js';
import { ChallengeBody, ChallengeParams, HeartbeatBody, JoinBody, LOG_BODY_LIMIT, LogBody } from './schemas.js';
import { ApiError } from '../../../core/errors.js';
import type { EdgesService } from './service.js';

/** Where the edge routes are mounted. */
export const EDGE_API_PREFIX = '/edge/v1';

const hide = { hide: true };
const iso = (p: ReaderPosition) => ({ ...p, counted_until: p.counted_until?.toISOString() ?? null });
const date = (value: string | null) => (value === null ? null : new Date(value));

/**
 * What edges call on the origin (docs/decisions.md, "Edge tier"): join with a one-use token, then,
 * with the credential it gave, heartbeats and log batches. Left out of the API description: these
 * are between svc's own nodes.
 */
export const edgeRoutes: FastifyPluginAsyncTypebox<{ edges: EdgesService }> = async (api, { edges }) => {
  api.post('/join', { schema: { ...hide, body: JoinBody } }, async (request) =>
    edges.join(request.body.token, request.body.address ?? null),
  );

  api.post('/heartbeat', { schema: { ...hide, body: HeartbeatBody } }, async (request) => {
    const edge = await edges.authenticate(request.headers.authorization);
    return edges.heartbeat(edge, { address: request.body.address, nginxUp: request.body.nginx_up });
  });

  api.get('/log/position', { schema: hide }, async (request) => {
    const edge = await edges.authenticate(request.headers.authorization);
    return iso(await edges.position(edge));
  });

  api.post('/log', { schema: { ...hide, body: LogBody }, bodyLimit: LOG_BODY_LIMIT }, async (request) => {
    const edge = await edges.authenticate(request.headers.authorization);
    const { from, to, delivery, viewers, served } = request.body;
    const position = await edges.commitLog(
      edge,
      from,
      { ...to, counted_until: date(to.counted_until) },
      {
        delivery: delivery.map((r) => ({ ...r, minute: new Date(r.minute) })),
        viewers: viewers.map((r) => ({ ...r, minute: new Date(r.minute) })),
        served,
      },
    );
    return { position: iso(position) };
  });

  // ACME answers shared by edges of one name: put by the edge that orders, asked for by the edge
  // the CA's fetch reaches (its nginx, with its credential), removed after the order.
  api.put(
    '/acme-challenge/:token',
    { schema: { ...hide, params: ChallengeParams, body: ChallengeBody } },
    async (request, reply) => {
      await edges.authenticate(request.headers.authorization);
      await edges.challenges.put(request.params.token, request.body.key_authorization);
      return reply.code(204).send();
    },
  );

  api.delete('/acme-challenge/:token', { schema: { ...hide, params: ChallengeParams } }, async (request, reply) => {
    await edges.authenticate(request.headers.authorization);
    await edges.challenges.remove(request.params.token);
    return reply.code(204).send();
  });

  api.get('/acme-challenge/:token', { schema: { ...hide, params: ChallengeParams } }, async (request, reply) => {
    await edges.authenticate(request.headers.authorization);
    const answer = await edges.challenges.get(request.params.token);
    if (answer === null) throw new ApiError('not_found', 'No ACME challenge with this token is being solved.');
    return reply.type('text/plain').send(answer);
  });
};
