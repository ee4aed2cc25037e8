import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { Stream, type StreamsService } from '../../streams/service.js';
import { StreamParams } from '../../streams/model.js';
import type { RecordingsService } from './service.js';
import { DownloadBody, RecordingDownload } from './schemas.js';
import { ops } from './openapi.js';

/** A stream's recording: delete, signed download (keyed). */
export const recordingRoutes: FastifyPluginAsyncTypebox<{
  recordings: RecordingsService;
  streams: StreamsService;
}> = async (api, { recordings, streams }) => {
  api.delete(
    '/v1/streams/:id/recording',
    {
      schema: {
        ...ops.deleteRecording,
        params: StreamParams,
        querystring: NoQuery,
        response: { 200: Type.Ref(Stream), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => streams.present(await recordings.remove(request.account, request.params.id)),
  );

  api.post(
    '/v1/streams/:id/recording/retry',
    {
      schema: {
        ...ops.retryRecording,
        params: StreamParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(Stream),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'recording_not_failed'),
        },
      },
    },
    async (request) => streams.present(await recordings.retry(request.account, request.params.id)),
  );

  api.post(
    '/v1/streams/:id/recording/download',
    {
      schema: {
        ...ops.createRecordingDownload,
        params: StreamParams,
        querystring: NoQuery,
        body: DownloadBody,
        response: {
          200: RecordingDownload,
          ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'recording_not_ready'),
        },
      },
    },
    async (request) => recordings.download(request.account, request.params.id, request.body.expires_in ?? 3600),
  );
};
