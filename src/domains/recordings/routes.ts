import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { requireAccount } from '../accounts/auth.js';
import { errorResponses } from '../../platform/http/schema-helpers.js';
import { StreamParams } from '../streams/schemas.js';
import type { StreamsService } from '../streams/service.js';
import type { RecordingsService } from './service.js';
import { DownloadBody, RecordingDownload } from './schemas.js';

const security = [{ apiKey: [] }];
const tags = ['Recordings'];

export function registerRecordingRoutes(app: FastifyInstance, recordings: RecordingsService, streams: StreamsService): void {
  app.delete(
    '/v1/streams/:id/recording',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Delete the recording',
        description: 'A ready (or failed) recording is deleted at once (`deleted`, event `recording.deleted`); one still being made is `deleting` and is deleted as soon as it exists. Without a recording the stream is returned unchanged.',
        tags,
        security,
        params: StreamParams,
        response: { 200: Type.Ref('Stream'), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => {
      const account = requireAccount(request);
      const row = await recordings.remove(account, (request.params as { id: string }).id);
      return streams.present(row);
    },
  );

  app.post(
    '/v1/streams/:id/recording/download',
    {
      onRequest: app.authenticate,
      schema: {
        summary: 'Sign a recording download',
        description: 'A signed URL of the MP4 (range requests supported). `409 recording_not_ready` with `details.status` until the recording is ready.',
        tags,
        security,
        params: StreamParams,
        body: DownloadBody,
        response: { 200: RecordingDownload, ...errorResponses('invalid_request', 'unauthorized', 'not_found', 'recording_not_ready') },
      },
    },
    async (request) => {
      const body = request.body as { expires_in?: number };
      return recordings.download(requireAccount(request), (request.params as { id: string }).id, body.expires_in ?? 3600);
    },
  );
}
