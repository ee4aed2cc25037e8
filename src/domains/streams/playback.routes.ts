import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { keyed } from '../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../platform/http/schema-helpers.js';
import { StreamParams } from './model.js';
import type { StreamsService } from './service.js';
import { PlaybackToken, PlaybackTokenBody } from './playback.schemas.js';

export function registerPlaybackRoutes(app: FastifyInstance, streams: StreamsService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/v1/streams/:id/playback-token',
    {
      ...keyed(app),
      schema: {
        operationId: 'createPlaybackToken',
        summary: 'Sign a playback URL',
        description:
          'A signed HLS URL for your own player. nginx checks the signature on every request: unsigned, altered or expired links get 403. Refused with `409 stream_ended` once the stream is finished.',
        tags: ['Playback'],
        security: [{ apiKey: [] }],
        params: StreamParams,
        querystring: NoQuery,
        body: PlaybackTokenBody,
        response: {
          200: PlaybackToken,
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'stream_ended'),
        },
      },
    },
    async (request) => streams.playbackToken(request.account, request.params.id, request.body.expires_in),
  );
}
