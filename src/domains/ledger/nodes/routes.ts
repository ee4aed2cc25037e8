import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { NodesService } from './service.js';

/** Where the node routes are mounted. */
export const NODE_API_PREFIX = '/node/v1';

const JoinBody = Type.Object(
  // Any string: a wrong token is refused as one (401), whatever it looks like.
  { token: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);

/**
 * What an ingest node calls on the primary (docs/decisions.md, "Ingest nodes"): its join, trading
 * the one-use token for what it runs with. Everything after goes through the shared database.
 * Left out of the API description: this is between svc's own machines.
 */
export const nodeRoutes: FastifyPluginAsyncTypebox<{ nodes: NodesService }> = async (api, { nodes }) => {
  api.post('/join', { schema: { hide: true, body: JoinBody } }, async (request) => nodes.join(request.body.token));
};
