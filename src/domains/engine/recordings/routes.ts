import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { Stream, StreamParams } from '../../streams/schemas.js';
import type { StreamsService } from '../../streams/service.js';
import type { RecordingsService } from './service.js';
import { DownloadBody, RecordingDownload } from './schemas.js';
import { ops } from './openapi.js';

export function registerRecordingRoutes(
  app: FastifyInstance,
  recordings: RecordingsService,
  streams: StreamsService,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const auth = keyed(app);

  api.delete(
    '/v1/streams/:id/recording',
    {
      ...auth,
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
    '/v1/streams/:id/recording/download',
    {
      ...auth,
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
}
