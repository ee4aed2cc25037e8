import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { activeAccount } from '../../ledger/accounts/auth.js';
import { CreateHeaders } from '../schemas.js';
import { ops } from './openapi.js';
import {
  Channel,
  ChannelList,
  ChannelParams,
  CreateChannelBody,
  DeletedChannel,
  ListChannelsQuery,
  PatchChannelBody,
} from './schemas.js';
import type { ChannelsService } from './service.js';

/** Channels (keyed). */
export const channelRoutes: FastifyPluginAsyncTypebox<{ channels: ChannelsService }> = async (api, { channels }) => {
  api.post(
    '/v1/channels',
    {
      // As stream creation: a pending or suspended account prepares no broadcasts.
      ...activeAccount,
      schema: {
        ...ops.createChannel,
        querystring: NoQuery,
        headers: CreateHeaders,
        body: Type.Optional(CreateChannelBody),
        response: {
          201: Type.Ref(Channel),
          ...errorResponses(
            'invalid_request',
            'unauthorized',
            'account_pending',
            'tenant_suspended',
            'idempotency_key_reused',
            'limit_channels',
          ),
        },
      },
    },
    async (request, reply) => {
      const { channel, replayed } = await channels.create(
        request.account,
        request.body,
        request.headers['idempotency-key'],
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(channel);
    },
  );

  api.get(
    '/v1/channels',
    {
      schema: {
        ...ops.listChannels,
        querystring: ListChannelsQuery,
        response: { 200: Type.Ref(ChannelList), ...errorResponses('invalid_request', 'unauthorized') },
      },
    },
    async (request) => channels.list(request.account, request.query),
  );

  api.get(
    '/v1/channels/:id',
    {
      schema: {
        ...ops.getChannel,
        params: ChannelParams,
        querystring: NoQuery,
        response: { 200: Type.Ref(Channel), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => channels.get(request.account, request.params.id),
  );

  api.patch(
    '/v1/channels/:id',
    {
      ...activeAccount,
      schema: {
        ...ops.updateChannel,
        params: ChannelParams,
        querystring: NoQuery,
        body: PatchChannelBody,
        response: {
          200: Type.Ref(Channel),
          ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended', 'not_found'),
        },
      },
    },
    async (request) => channels.update(request.account, request.params.id, request.body),
  );

  api.delete(
    '/v1/channels/:id',
    {
      schema: {
        ...ops.deleteChannel,
        params: ChannelParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(DeletedChannel),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'channel_not_empty'),
        },
      },
    },
    async (request) => channels.remove(request.account, request.params.id),
  );
};
