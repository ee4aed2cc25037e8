/**
 * `npm run docs`: writes docs/api.md and docs/openapi.json from the route schemas, the same
 * ones requests are validated with. A test fails when the committed files fall behind.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApi } from './appliance.js';
import { resolveConfig } from '../config/config.js';
import { systemClock } from '../core/clock.js';
import { createLogger } from '../core/logger.js';
import { packageRoot } from '../core/package-root.js';
import { connect } from '../platform/db/connect.js';
import { renderReference, type OpenApiDocument } from '../api/api-reference.js';

/** The OpenAPI document as served, with the default public addresses. */
export async function buildOpenApi(): Promise<OpenApiDocument> {
  // Never queried: building the document only needs the routes.
  const sql = connect('postgres://docs@127.0.0.1:1/docs', { max: 1 });
  const api = await createApi({
    sql,
    config: resolveConfig(packageRoot, { host: 'svc.example.com' }),
    secrets: { postgres_password: '', signing_key: '', data_key: '' },
    clock: systemClock,
    logger: createLogger('silent'),
  });
  const doc = api.app.swagger() as unknown as OpenApiDocument;
  await api.app.close();
  await sql.end();
  return doc;
}

export const docsFiles = (doc: OpenApiDocument) => ({
  'docs/api.md': renderReference(doc),
  'docs/openapi.json': JSON.stringify(doc, null, 2) + '\n',
});

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = docsFiles(await buildOpenApi());
  for (const [path, text] of Object.entries(files)) writeFileSync(join(packageRoot, path), text);
  console.log(`wrote ${Object.keys(files).join(', ')}`);
}
