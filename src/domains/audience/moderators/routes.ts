import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { ChannelParams, StreamParams } from '../../streams/model.js';
import {
  ChannelModeratorParams,
  InviteModeratorBody,
  ListModeratorsQuery,
  Moderator,
  ModeratorList,
  ModeratorParams,
} from './schemas.js';
import type { ModeratorsService } from './service.js';
import { ops } from './openapi.js';

/** Chat moderators of a stream, and of a channel (every stream of it), invited by their owner (keyed). */
export const moderatorRoutes: FastifyPluginAsyncTypebox<{ moderators: ModeratorsService }> = async (
  api,
  { moderators },
) => {
  for (const kind of ['stream', 'channel'] as const) {
    const base = kind === 'stream' ? '/v1/streams/:id/chat/moderators' : '/v1/channels/:id/chat/moderators';
    const op =
      kind === 'stream'
        ? { invite: ops.inviteChatModerator, list: ops.listChatModerators, remove: ops.removeChatModerator }
        : {
            invite: ops.inviteChannelChatModerator,
            list: ops.listChannelChatModerators,
            remove: ops.removeChannelChatModerator,
          };
    api.post(
      base,
      {
        schema: {
          ...op.invite,
          params: kind === 'stream' ? StreamParams : ChannelParams,
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
        const { moderator, created } = await moderators.invite(
          request.account,
          { kind, id: request.params.id },
          request.body,
        );
        return reply.code(created ? 201 : 200).send(moderator);
      },
    );

    api.get(
      base,
      {
        schema: {
          ...op.list,
          params: kind === 'stream' ? StreamParams : ChannelParams,
          querystring: ListModeratorsQuery,
          response: {
            200: Type.Ref(ModeratorList),
            ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
          },
        },
      },
      async (request) => moderators.list(request.account, { kind, id: request.params.id }, request.query),
    );

    api.delete(
      `${base}/:mod_id`,
      {
        schema: {
          ...op.remove,
          params: kind === 'stream' ? ModeratorParams : ChannelModeratorParams,
          querystring: NoQuery,
          response: {
            204: Type.Null({ description: 'Removed' }),
            ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
          },
        },
      },
      async (request, reply) => {
        await moderators.remove(request.account, { kind, id: request.params.id }, request.params.mod_id);
        return reply.code(204).send(null);
      },
    );
  }
};
