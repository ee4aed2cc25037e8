import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { keyed } from '../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../platform/http/schema-helpers.js';
import { StreamParams } from './schemas.js';
import type { StreamsService } from './service.js';
import { PlaybackToken, PlaybackTokenBody } from './playback.schemas.js';
import { ops } from './playback.openapi.js';

export function registerPlaybackRoutes(app: FastifyInstance, streams: StreamsService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/v1/streams/:id/playback-token',
    {
      ...keyed(app),
      schema: {
        ...ops.createPlaybackToken,
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
