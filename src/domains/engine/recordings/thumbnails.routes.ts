import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/model.js';
import type { ThumbnailsService } from './thumbnails.js';
import { CurrentThumbnailQuery, RecordingThumbnailQuery, Thumbnail } from './thumbnails.schemas.js';
import { ops } from './thumbnails.openapi.js';

/** A stream's current still and its recording's stills, as signed addresses (keyed). */
export const thumbnailRoutes: FastifyPluginAsyncTypebox<{ thumbnails: ThumbnailsService }> = async (
  api,
  { thumbnails },
) => {
  api.get(
    '/v1/streams/:id/thumbnail',
    {
      schema: {
        ...ops.getThumbnail,
        params: StreamParams,
        querystring: CurrentThumbnailQuery,
        response: {
          200: Thumbnail,
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'thumbnail_not_ready'),
        },
      },
    },
    async (request) => thumbnails.current(request.account, request.params.id, request.query.expires_in ?? 3600),
  );

  api.get(
    '/v1/streams/:id/recording/thumbnail',
    {
      schema: {
        ...ops.getRecordingThumbnail,
        params: StreamParams,
        querystring: RecordingThumbnailQuery,
        response: {
          200: Thumbnail,
          // Also `service_unavailable` (every keyed route has it): a still that cannot be made just now.
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'recording_not_ready'),
        },
      },
    },
    async (request) =>
      thumbnails.recordingStill(
        request.account,
        request.params.id,
        request.query.time ?? 0,
        request.query.expires_in ?? 3600,
      ),
  );
};
