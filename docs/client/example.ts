/**
 * A typed client of the svc API in a few lines: openapi-fetch with the types that
 * `npm run docs` generates from the OpenAPI description (docs/client/schema.d.ts). Paths, bodies,
 * parameters and answers are all checked by the compiler; `npm run check` compiles this file,
 * so it stays true to the API.
 *
 *   SVC_BASE_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_live_... npx tsx docs/client/example.ts
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

type Stream = components['schemas']['Stream'];

export function svcClient(baseUrl: string, apiKey: string) {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });
}

/** Creates a stream, then reads it back; errors come back as the API's `{error: {code, ...}}`. */
export async function createAndRead(client: ReturnType<typeof svcClient>): Promise<Stream> {
  const created = await client.POST('/v1/streams', {
    params: { header: { 'idempotency-key': `example-${Date.now()}` } },
    body: { name: 'Friday town hall', max_resolution: 720, metadata: { event_id: 'evt-42' } },
  });
  if (created.error) throw new Error(`create: ${created.error.error.code}: ${created.error.error.message}`);
  console.log(`publish to ${created.data.rtmp_url ?? ''} with key ${created.data.stream_key}`);

  const read = await client.GET('/v1/streams/{id}', { params: { path: { id: created.data.id } } });
  if (read.error) throw new Error(`read: ${read.error.error.code}: ${read.error.error.message}`);
  return read.data;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const client = svcClient(process.env.SVC_BASE_URL ?? 'http://127.0.0.1:8080', process.env.SVC_API_KEY ?? '');
  const stream = await createAndRead(client);
  console.log(`${stream.id} is ${stream.status}; reservation ends ${stream.reservation_expires_at ?? '-'}`);
}
