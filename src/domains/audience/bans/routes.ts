import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { ChannelParams, StreamParams } from '../../streams/model.js';
import { Ban, BanList, BanParams, ChannelBanParams, CreateBanBody, ListBansQuery } from './schemas.js';
import type { BansService } from './service.js';
import { ops } from './openapi.js';

/** Chat bans of a stream, and of a channel (every stream of it), by their owner (keyed). */
export const banRoutes: FastifyPluginAsyncTypebox<{ bans: BansService }> = async (api, { bans }) => {
  for (const kind of ['stream', 'channel'] as const) {
    const base = kind === 'stream' ? '/v1/streams/:id/chat/bans' : '/v1/channels/:id/chat/bans';
    const op =
      kind === 'stream'
        ? { create: ops.createChatBan, list: ops.listChatBans, remove: ops.deleteChatBan }
        : { create: ops.createChannelChatBan, list: ops.listChannelChatBans, remove: ops.deleteChannelChatBan };
    api.post(
      base,
      {
        schema: {
          ...op.create,
          params: kind === 'stream' ? StreamParams : ChannelParams,
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
        const { ban, created } = await bans.create(request.account, { kind, id: request.params.id }, request.body);
        return reply.code(created ? 201 : 200).send(ban);
      },
    );

    api.get(
      base,
      {
        schema: {
          ...op.list,
          params: kind === 'stream' ? StreamParams : ChannelParams,
          querystring: ListBansQuery,
          response: { 200: Type.Ref(BanList), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
        },
      },
      async (request) => bans.list(request.account, { kind, id: request.params.id }, request.query),
    );

    api.delete(
      `${base}/:ban_id`,
      {
        schema: {
          ...op.remove,
          params: kind === 'stream' ? BanParams : ChannelBanParams,
          querystring: NoQuery,
          response: {
            204: Type.Null({ description: 'Lifted' }),
            ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
          },
        },
      },
      async (request, reply) => {
        await bans.remove(request.account, { kind, id: request.params.id }, request.params.ban_id);
        return reply.code(204).send(null);
      },
    );
  }
};
