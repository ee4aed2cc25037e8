import type { FastifyPluginAsync } from 'fastify';
import type { RecordingsService } from './service.js';

const STREAM_ID = /^str_[a-z0-9]{20}$/;

/**
 * nginx's `auth_request` for a recording or an ended stream's still that is not on the origin's
 * disk (templates/nginx/nginx.conf.njk, `@rec_bucket`, `@thumb_bucket`): 200 with the presigned
 * path and query in `X-Svc-Object`, which nginx fetches from the bucket. Mounted under the hooks'
 * token path on loopback; hidden from the API description.
 */
export const bucketSourceRoutes: FastifyPluginAsync<{ recordings: RecordingsService }> = async (
  scope,
  { recordings },
) => {
  const sources = {
    'recording-source': (id: string) => recordings.bucketSource(id),
    'still-source': (id: string) => recordings.stillSource(id),
  };
  for (const [path, source] of Object.entries(sources))
    scope.get<{ Params: { id: string } }>(
      `/${path}/:id`,
      { schema: { hide: true }, config: { reportedRoute: `/internal/ingest/:token/${path}/:id` } },
      async (request, reply) => {
        const object = STREAM_ID.test(request.params.id) ? await source(request.params.id) : null;
        if (!object) return reply.code(403).send('');
        return reply.header('X-Svc-Object', object).code(200).send('');
      },
    );
};
