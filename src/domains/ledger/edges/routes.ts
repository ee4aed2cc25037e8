import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ReaderPosition } from '../cdnlog/queries.js';
import { HeartbeatBody, JoinBody, LOG_BODY_LIMIT, LogBody } from './schemas.js';
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
};
