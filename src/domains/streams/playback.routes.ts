import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NoQuery, errorResponses } from '../../platform/http/schema-helpers.js';
import { StreamParams } from './model.js';
import type { StreamsService } from './service.js';
import { PlaybackToken, PlaybackTokenBody } from './playback.schemas.js';
import { ops } from './playback.openapi.js';

/** Signed playback addresses for the customer's own player (keyed). */
export const playbackRoutes: FastifyPluginAsyncTypebox<{ streams: StreamsService }> = async (api, { streams }) => {
  api.post(
    '/v1/streams/:id/playback-token',
    {
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
};
