import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../ledger/accounts/auth.js';
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

const security = [{ apiKey: [] }];
const tags = ['Streams'];

export function registerStreamRoutes(app: FastifyInstance, streams: StreamsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const auth = keyed(app);
  const active = keyed(app, { active: true });

  api.post(
    '/v1/streams',
    {
      ...active,
      schema: {
        operationId: 'createStream',
        summary: 'Create a stream',
        description:
          'Reserves ingest for 30 minutes and returns the addresses and the stream key (shown once). With `Idempotency-Key`, a retry within 24 hours returns the first response with `Idempotent-Replayed: true`.',
        tags,
        security,
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
      ...active,
      schema: {
        operationId: 'listStreams',
        summary: 'List streams',
        description: 'Newest first. Page with `starting_after` = the id of the last stream of the previous page.',
        tags,
        security,
        querystring: ListStreamsQuery,
        response: {
          200: Type.Ref(StreamList),
          ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended'),
        },
      },
    },
    async (request) => streams.list(request.account, request.query),
  );

  api.get(
    '/v1/streams/:id',
    {
      ...active,
      schema: {
        operationId: 'getStream',
        summary: 'Get a stream',
        description: 'With `ingest`, `cost` and `viewers`. `playback_url` is re-signed on every read.',
        tags,
        security,
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
      ...active,
      schema: {
        operationId: 'updateStream',
        summary: 'Update a stream',
        description:
          'Works in any status. Fields left out are unchanged; null clears; `metadata` is replaced whole; `player` fields sent replace those fields. `latency_mode` changes only while pending (`409 stream_not_pending` once live or finished; sending the current value is always accepted).',
        tags,
        security,
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
      ...active,
      schema: {
        operationId: 'deleteStream',
        summary: 'End or cancel a stream',
        description:
          'Pending: cancelled. Live: ended (`end_reason` `deleted`) and the publisher is disconnected. Finished: returned unchanged.',
        tags,
        security,
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
      ...auth,
      schema: {
        operationId: 'rotateStreamKey',
        summary: 'Replace the stream key',
        description: 'Only while pending; the old key and WHIP URL stop at once.',
        tags,
        security,
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
      ...auth,
      schema: {
        operationId: 'getViewerSeries',
        summary: 'Viewer series of a stream',
        description:
          'Per-minute viewer counts from the hosted player (`player`) and from CDN logs (`cdn`), and watch time per country.',
        tags,
        security,
        params: StreamParams,
        querystring: NoQuery,
        response: { 200: ViewerSeries, ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => streams.viewerSeries(request.account, request.params.id),
  );
}
