import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { activeAccount } from '../../ledger/accounts/auth.js';
import { StreamParams } from '../../streams/model.js';
import { ops } from './openapi.js';
import {
  CreateOutputBody,
  CreateOutputHeaders,
  OutputParams,
  PatchOutputBody,
  StreamOutput,
  StreamOutputList,
} from './schemas.js';
import type { OutputsService } from './service.js';

/** Restreaming outputs of a stream (keyed). */
export const outputRoutes: FastifyPluginAsyncTypebox<{ outputs: OutputsService }> = async (api, { outputs }) => {
  api.post(
    '/v1/streams/:id/outputs',
    {
      // A pending or suspended account adds no outputs (nor changes them): pushing is delivery it would pay for.
      ...activeAccount,
      schema: {
        ...ops.createStreamOutput,
        params: StreamParams,
        querystring: NoQuery,
        headers: CreateOutputHeaders,
        body: CreateOutputBody,
        response: {
          201: Type.Ref(StreamOutput),
          ...errorResponses(
            'invalid_request',
            'unauthorized',
            'account_pending',
            'tenant_suspended',
            'not_found',
            'stream_ended',
            'idempotency_key_reused',
            'limit_stream_outputs',
          ),
        },
      },
    },
    async (request, reply) => {
      const { output, replayed } = await outputs.create(
        request.account,
        request.params.id,
        request.body,
        request.headers['idempotency-key'],
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(output);
    },
  );

  api.get(
    '/v1/streams/:id/outputs',
    {
      schema: {
        ...ops.listStreamOutputs,
        params: StreamParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(StreamOutputList),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request) => outputs.list(request.account, request.params.id),
  );

  api.get(
    '/v1/streams/:id/outputs/:output_id',
    {
      schema: {
        ...ops.getStreamOutput,
        params: OutputParams,
        querystring: NoQuery,
        response: { 200: Type.Ref(StreamOutput), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => outputs.get(request.account, request.params.id, request.params.output_id),
  );

  api.patch(
    '/v1/streams/:id/outputs/:output_id',
    {
      ...activeAccount,
      schema: {
        ...ops.updateStreamOutput,
        params: OutputParams,
        querystring: NoQuery,
        body: PatchOutputBody,
        response: {
          200: Type.Ref(StreamOutput),
          ...errorResponses(
            'invalid_request',
            'unauthorized',
            'account_pending',
            'tenant_suspended',
            'not_found',
            'stream_ended',
          ),
        },
      },
    },
    async (request) => outputs.update(request.account, request.params.id, request.params.output_id, request.body),
  );

  api.delete(
    '/v1/streams/:id/outputs/:output_id',
    {
      schema: {
        ...ops.deleteStreamOutput,
        params: OutputParams,
        querystring: NoQuery,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      await outputs.remove(request.account, request.params.id, request.params.output_id);
      return reply.code(204).send(null);
    },
  );
};
