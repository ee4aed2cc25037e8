import type { FastifyPluginAsync } from 'fastify';
import type { RecordingsService } from './service.js';

const STREAM_ID = /^str_[a-z0-9]{20}$/;

interface Params {
  id: string;
  file?: string;
}

/**
 * nginx's `auth_request` for a recording, a replay's file or an ended stream's still that is not on
 * the origin's disk (templates/nginx/nginx.conf.njk, `@rec_bucket`, `@rpl_bucket`, `@thumb_bucket`): 200 with the presigned
 * path and query in `X-Svc-Object`, which nginx fetches from the bucket. Mounted under the hooks'
 * token path on loopback; hidden from the API description.
 */
export const bucketSourceRoutes: FastifyPluginAsync<{ recordings: RecordingsService }> = async (
  scope,
  { recordings },
) => {
  const sources: Record<string, (params: Params) => Promise<string | null>> = {
    'recording-source/:id': ({ id }) => recordings.bucketSource(id),
    'still-source/:id': ({ id }) => recordings.stillSource(id),
    'replay-source/:id/:file': ({ id, file }) => recordings.replaySource(id, file ?? ''),
  };
  for (const [path, source] of Object.entries(sources))
    scope.get<{ Params: Params }>(
      `/${path}`,
      { schema: { hide: true }, config: { reportedRoute: `/internal/ingest/:token/${path}` } },
      async (request, reply) => {
        const object = STREAM_ID.test(request.params.id) ? await source(request.params) : null;
        if (!object) return reply.code(403).send('');
        return reply.header('X-Svc-Object', object).code(200).send('');
      },
    );
};
