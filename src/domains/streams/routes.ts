import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { activeAccount } from '../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../platform/http/schema-helpers.js';
import type { StreamsService } from './service.js';
import { StreamParams } from './model.js';
import {
  CreateHeaders,
  CreateStreamBody,
  CreatedStream,
  ListStreamsQuery,
  PatchStreamBody,
  Stream,
  StreamList,
  ViewerSeries,
} from './schemas.js';
import { ops } from './openapi.js';

/** The streams API (keyed). */
export const streamRoutes: FastifyPluginAsyncTypebox<{ streams: StreamsService }> = async (api, { streams }) => {
  api.post(
    '/v1/streams',
    {
      ...activeAccount,
      schema: {
        ...ops.createStream,
        querystring: NoQuery,
        headers: CreateHeaders,
        body: Type.Optional(CreateStreamBody),
        response: {
          201: Type.Ref(CreatedStream),
          ...errorResponses(
            'invalid_request',
            'unauthorized',
            'insufficient_credit',
            'account_pending',
            'tenant_suspended',
            'not_found',
            'idempotency_key_reused',
            'limit_pending_streams',
            'limit_creation_rate',
            'limit_ingest_hours',
            'limit_resolution',
            'no_capacity',
          ),
        },
      },
    },
    async (request, reply) => {
      const { stream, replayed } = await streams.create(
        request.account,
        request.body,
        request.headers['idempotency-key'],
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(stream);
    },
  );

  api.get(
    '/v1/streams',
    {
      ...activeAccount,
      schema: {
        ...ops.listStreams,
        querystring: ListStreamsQuery,
        response: {
          200: Type.Ref(StreamList),
          ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended', 'not_found'),
        },
      },
    },
    async (request) => streams.list(request.account, request.query),
  );

  api.get(
    '/v1/streams/:id',
    {
      ...activeAccount,
      schema: {
        ...ops.getStream,
        params: StreamParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(Stream),
          ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended', 'not_found'),
        },
      },
    },
    async (request) => streams.get(request.account, request.params.id),
  );

  api.patch(
    '/v1/streams/:id',
    {
      ...activeAccount,
      schema: {
        ...ops.updateStream,
        params: StreamParams,
        querystring: NoQuery,
        body: PatchStreamBody,
        response: {
          200: Type.Ref(Stream),
          ...errorResponses(
            'invalid_request',
            'unauthorized',
            'account_pending',
            'tenant_suspended',
            'not_found',
            'stream_not_pending',
          ),
        },
      },
    },
    async (request) => streams.update(request.account, request.params.id, request.body),
  );

  api.delete(
    '/v1/streams/:id',
    {
      ...activeAccount,
      schema: {
        ...ops.deleteStream,
        params: StreamParams,
        querystring: NoQuery,
        // No body is defined, but one that is sent must still be JSON of a sane size: 400 otherwise.
        response: {
          200: Type.Ref(Stream),
          ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended', 'not_found'),
        },
      },
    },
    async (request) => streams.remove(request.account, request.params.id),
  );

  api.post(
    '/v1/streams/:id/stream-key',
    {
      schema: {
        ...ops.rotateStreamKey,
        params: StreamParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(CreatedStream),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'stream_not_pending'),
        },
      },
    },
    async (request) => streams.replaceKey(request.account, request.params.id),
  );

  api.get(
    '/v1/streams/:id/viewers',
    {
      schema: {
        ...ops.getViewerSeries,
        params: StreamParams,
        querystring: NoQuery,
        response: { 200: ViewerSeries, ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => streams.viewerSeries(request.account, request.params.id),
  );
};
