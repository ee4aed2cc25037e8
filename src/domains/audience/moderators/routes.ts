import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/model.js';
import { InviteModeratorBody, ListModeratorsQuery, Moderator, ModeratorList, ModeratorParams } from './schemas.js';
import type { ModeratorsService } from './service.js';
import { ops } from './openapi.js';

/** Chat moderators, invited by the stream's owner (keyed). */
export const moderatorRoutes: FastifyPluginAsyncTypebox<{ moderators: ModeratorsService }> = async (
  api,
  { moderators },
) => {
  api.post(
    '/v1/streams/:id/chat/moderators',
    {
      schema: {
        ...ops.inviteChatModerator,
        params: StreamParams,
        querystring: NoQuery,
        body: InviteModeratorBody,
        response: {
          200: Type.Ref(Moderator),
          201: Type.Ref(Moderator),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      const { moderator, created } = await moderators.invite(request.account, request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(moderator);
    },
  );

  api.get(
    '/v1/streams/:id/chat/moderators',
    {
      schema: {
        ...ops.listChatModerators,
        params: StreamParams,
        querystring: ListModeratorsQuery,
        response: { 200: Type.Ref(ModeratorList), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => moderators.list(request.account, request.params.id, request.query),
  );

  api.delete(
    '/v1/streams/:id/chat/moderators/:mod_id',
    {
      schema: {
        ...ops.removeChatModerator,
        params: ModeratorParams,
        querystring: NoQuery,
        response: {
          204: Type.Null({ description: 'Removed' }),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      await moderators.remove(request.account, request.params.id, request.params.mod_id);
      return reply.code(204).send(null);
    },
  );
};
