import type { FastifyInstance } from 'fastify';
import { requireAccount } from '../accounts/auth.js';
import { errorResponses } from '../../platform/http/schema-helpers.js';
import { StreamParams } from '../streams/schemas.js';
import type { StreamsService } from '../streams/service.js';
import { PlaybackToken, PlaybackTokenBody } from './schemas.js';

export function registerPlaybackRoutes(app: FastifyInstance, streams: StreamsService): void {
  app.post(
    '/v1/streams/:id/playback-token',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Sign a playback URL',
        description: 'A signed HLS URL for your own player. nginx checks the signature on every request: unsigned, altered or expired links get 403. Refused with `409 stream_ended` once the stream is finished.',
        tags: ['Playback'],
        security: [{ apiKey: [] }],
        params: StreamParams,
        body: PlaybackTokenBody,
        response: { 200: PlaybackToken, ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'stream_ended') },
      },
    },
    async (request) => {
      const body = request.body as { expires_in?: number };
      return streams.playbackToken(requireAccount(request), (request.params as { id: string }).id, body.expires_in);
    },
  );
}
