import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/model.js';
import { Ban, BanList, BanParams, CreateBanBody, ListBansQuery } from './schemas.js';
import type { BansService } from './service.js';

const security = [{ apiKey: [] }];
const tags = ['Viewer tokens, sessions, bans, attendance'];

export function registerBanRoutes(app: FastifyInstance, bans: BansService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const auth = keyed(app);

  api.post(
    '/v1/streams/:id/chat/bans',
    {
      ...auth,
      schema: {
        operationId: 'createChatBan',
        summary: 'Ban a viewer',
        description:
          "By `viewer_id` (the client's own viewer id, a token's `sub`) or `message_id` (the author of a chat message; an anonymous author is banned by the client id and the network the message came from). Bans are shadow bans: the banned viewer's chat posts (past and future) are shown to nobody but themselves, while their own feed shows them as sent. A ban follows the person, not the browser: a banned member's next renewal of the personal playback address is refused with `viewer_removed`, so the video stops when the current address runs out (within five minutes), and a new session on a members-only stream is refused. `201` with the new ban; `200` with the existing one when the viewer is already banned.",
        tags,
        security,
        params: StreamParams,
        querystring: NoQuery,
        body: CreateBanBody,
        response: {
          200: Type.Ref(Ban),
          201: Type.Ref(Ban),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      const { ban, created } = await bans.create(request.account, request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(ban);
    },
  );

  api.get(
    '/v1/streams/:id/chat/bans',
    {
      ...auth,
      schema: {
        operationId: 'listChatBans',
        summary: 'List bans of a stream',
        description: 'Newest first. Page with `starting_after` = the id of the last ban of the previous page.',
        tags,
        security,
        params: StreamParams,
        querystring: ListBansQuery,
        response: { 200: Type.Ref(BanList), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => bans.list(request.account, request.params.id, request.query),
  );

  api.delete(
    '/v1/streams/:id/chat/bans/:ban_id',
    {
      ...auth,
      schema: {
        operationId: 'deleteChatBan',
        summary: 'Lift a ban',
        description: 'The viewer may open sessions and renew playback again at once.',
        tags,
        security,
        params: BanParams,
        querystring: NoQuery,
        response: {
          204: Type.Null({ description: 'Lifted' }),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      await bans.remove(request.account, request.params.id, request.params.ban_id);
      return reply.code(204).send(null);
    },
  );
}
