/**
 * docs/client/schema.d.ts: TypeScript types of the API, generated from the OpenAPI description by
 * openapi-typescript. `npm run docs` writes it; test/docs/docs-current.test.ts fails when it falls
 * behind; `npm run check` compiles it with docs/client/example.ts, so the example cannot drift.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { packageRoot } from '../../src/core/package-root.js';
import { buildOpenApi } from '../../src/composition/generate-docs.js';
import type { OpenApiDocument } from '../../src/api/api-reference.js';

export const clientTypesFile = join(packageRoot, 'docs', 'client', 'schema.d.ts');

export async function clientTypes(doc: OpenApiDocument): Promise<string> {
  // A deep copy: the generator annotates what it reads.
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)) as Parameters<typeof openapiTS>[0]);
  return `// Generated from the OpenAPI description by \`npm run docs\` (openapi-typescript): do not edit.\n\n${astToString(ast)}`;
}

export const committedClientTypes = (): string => readFileSync(clientTypesFile, 'utf8');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(clientTypesFile, await clientTypes(await buildOpenApi()));
  console.log('wrote docs/client/schema.d.ts');
}
