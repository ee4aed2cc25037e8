import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { assertAccountActive, requireAccount } from '../accounts/auth.js';
import { errorResponses } from '../../platform/http/schema-helpers.js';
import type { StreamsService } from './service.js';
import {
  CreateHeaders,
  CreateStreamBody,
  CreatedStream,
  ListStreamsQuery,
  PatchStreamBody,
  Stream,
  StreamList,
  StreamParams,
  ViewerSeries,
  type ListStreamsQuery as ListQuery,
  type PatchStreamBody as PatchBody,
  type CreateStreamBody as CreateBody,
} from './schemas.js';

const security = [{ apiKey: [] }];
const tags = ['Streams'];

export function registerStreamRoutes(app: FastifyInstance, streams: StreamsService): void {
  const auth = { onRequest: app.authenticate };

  app.post(
    '/v1/streams',
    {
      ...auth,
      schema: {
        summary: 'Create a stream',
        description: 'Reserves ingest for 30 minutes and returns the addresses and the stream key (shown once). With `Idempotency-Key`, a retry within 24 hours returns the first response with `Idempotent-Replayed: true`.',
        tags,
        security,
        headers: CreateHeaders,
        body: Type.Optional(CreateStreamBody),
        response: {
          201: Type.Ref(CreatedStream),
          ...errorResponses('invalid_request', 'unauthorized', 'insufficient_credit', 'account_pending', 'tenant_suspended', 'idempotency_key_reused', 'limit_pending_streams', 'limit_creation_rate', 'limit_resolution', 'no_capacity'),
        },
      },
    },
    async (request, reply) => {
      const account = requireAccount(request);
      assertAccountActive(account);
      const key = (request.headers as { 'idempotency-key'?: string })['idempotency-key'];
      const { stream, replayed } = await streams.create(account, request.body as CreateBody | undefined, key);
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(stream);
    },
  );

  app.get(
    '/v1/streams',
    {
      ...auth,
      schema: {
        summary: 'List streams',
        description: 'Newest first. Page with `starting_after` = the id of the last stream of the previous page.',
        tags,
        security,
        querystring: ListStreamsQuery,
        response: { 200: Type.Ref(StreamList), ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended') },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      assertAccountActive(account);
      return streams.list(account, request.query as ListQuery);
    },
  );

  app.get(
    '/v1/streams/:id',
    {
      ...auth,
      schema: {
        summary: 'Get a stream',
        description: 'With `ingest`, `cost` and `viewers`. `playback_url` is re-signed on every read.',
        tags,
        security,
        params: StreamParams,
        response: { 200: Type.Ref(Stream), ...errorResponses('unauthorized', 'account_pending', 'tenant_suspended', 'not_found') },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      assertAccountActive(account);
      return streams.get(account, (request.params as { id: string }).id);
    },
  );

  app.patch(
    '/v1/streams/:id',
    {
      ...auth,
      schema: {
        summary: 'Update a stream',
        description: 'Works in any status. Fields left out are unchanged; null clears; `metadata` is replaced whole; `player` fields sent replace those fields.',
        tags,
        security,
        params: StreamParams,
        body: PatchStreamBody,
        response: { 200: Type.Ref(Stream), ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended', 'not_found') },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      assertAccountActive(account);
      return streams.update(account, (request.params as { id: string }).id, request.body as PatchBody);
    },
  );

  app.delete(
    '/v1/streams/:id',
    {
      ...auth,
      schema: {
        summary: 'End or cancel a stream',
        description: 'Pending: cancelled. Live: ended (`end_reason` `deleted`) and the publisher is disconnected. Finished: returned unchanged.',
        tags,
        security,
        params: StreamParams,
        // No body is defined, but one that is sent must still be JSON of a sane size: 400 otherwise.
        response: { 200: Type.Ref(Stream), ...errorResponses('invalid_request', 'unauthorized', 'account_pending', 'tenant_suspended', 'not_found') },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      assertAccountActive(account);
      return streams.remove(account, (request.params as { id: string }).id);
    },
  );

  app.post(
    '/v1/streams/:id/stream-key',
    {
      ...auth,
      schema: {
        summary: 'Replace the stream key',
        description: 'Only while pending; the old key and WHIP URL stop at once.',
        tags,
        security,
        params: StreamParams,
        response: { 200: Type.Ref(CreatedStream), ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'stream_not_pending') },
      },
    },
    async (request) => streams.replaceKey(requireAccount(request), (request.params as { id: string }).id),
  );

  app.get(
    '/v1/streams/:id/viewers',
    {
      ...auth,
      schema: {
        summary: 'Viewer series of a stream',
        description: 'Per-minute viewer counts from the hosted player (`player`) and from CDN logs (`cdn`), and watch time per country.',
        tags,
        security,
        params: StreamParams,
        response: { 200: ViewerSeries, ...errorResponses('unauthorized', 'not_found') },
      },
    },
    async (request) => streams.viewerSeries(requireAccount(request), (request.params as { id: string }).id),
  );
}
