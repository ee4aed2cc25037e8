import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/model.js';
import { Ban, BanList, BanParams, CreateBanBody, ListBansQuery } from './schemas.js';
import type { BansService } from './service.js';
import { ops } from './openapi.js';

/** Chat bans, by the stream's owner (keyed). */
export const banRoutes: FastifyPluginAsyncTypebox<{ bans: BansService }> = async (api, { bans }) => {
  api.post(
    '/v1/streams/:id/chat/bans',
    {
      schema: {
        ...ops.createChatBan,
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
      schema: {
        ...ops.listChatBans,
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
      schema: {
        ...ops.deleteChatBan,
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
};
