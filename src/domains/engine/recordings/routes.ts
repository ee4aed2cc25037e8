import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { Stream, type StreamsService } from '../../streams/service.js';
import { StreamParams } from '../../streams/model.js';
import type { RecordingsService } from './service.js';
import { DownloadBody, RecordingDownload } from './schemas.js';

const security = [{ apiKey: [] }];
const tags = ['Recordings'];

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
        operationId: 'deleteRecording',
        summary: 'Delete the recording',
        description:
          'A ready (or failed) recording is deleted at once (`deleted`, event `recording.deleted`); one still being made is `deleting` and is deleted as soon as it exists. Without a recording the stream is returned unchanged.',
        tags,
        security,
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
        operationId: 'createRecordingDownload',
        summary: 'Sign a recording download',
        description:
          'A signed URL of the MP4 (range requests supported). `409 recording_not_ready` with `details.status` until the recording is ready.',
        tags,
        security,
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
