import type { FastifyPluginAsync } from 'fastify';
import type { RecordingsService } from './service.js';

const STREAM_ID = /^str_[a-z0-9]{20}$/;

/**
 * nginx's `auth_request` for a recording not on the origin's disk (templates/nginx/nginx.conf.njk,
 * `@rec_bucket`): 200 with the presigned path and query in `X-Svc-Object`, which nginx fetches
 * from the bucket. Mounted under the hooks' token path on loopback; hidden from the API description.
 */
export const recordingSourceRoute: FastifyPluginAsync<{ recordings: RecordingsService }> = async (
  scope,
  { recordings },
) => {
  scope.get<{ Params: { id: string } }>(
    '/recording-source/:id',
    { schema: { hide: true }, config: { reportedRoute: '/internal/ingest/:token/recording-source/:id' } },
    async (request, reply) => {
      const source = STREAM_ID.test(request.params.id) ? await recordings.bucketSource(request.params.id) : null;
      if (!source) return reply.code(403).send('');
      return reply.header('X-Svc-Object', source).code(200).send('');
    },
  );
};
