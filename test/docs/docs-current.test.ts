import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { packageRoot } from '../../src/core/package-root.js';
import { buildOpenApi, docsFiles } from '../../src/composition/generate-docs.js';
import { API_VERSION } from '../../src/platform/http/openapi.js';
import { architectureDoc, architectureSection, withSection } from './architecture-picture.js';
import { clientTypes, committedClientTypes } from './client-types.js';

test('docs/api.md and docs/openapi.json match the route schemas (run `npm run docs`)', async () => {
  const files = docsFiles(await buildOpenApi());
  for (const [path, text] of Object.entries(files)) {
    assert.ok(readFileSync(join(packageRoot, path), 'utf8') === text, `${path} is out of date: run \`npm run docs\``);
  }
});

test('docs/client/schema.d.ts holds the types of the live description (run `npm run docs`)', async () => {
  assert.ok(committedClientTypes() === (await clientTypes(await buildOpenApi())), 'docs/client/schema.d.ts is out of date: run `npm run docs`');
});

test('docs/architecture.md shows the layers of .dependency-cruiser.mjs and the imports of the code (run `npm run docs`)', async () => {
  const doc = architectureDoc();
  assert.ok(doc === withSection(doc, await architectureSection()), 'docs/architecture.md is out of date: run `npm run docs`');
});

test('the changelog newest version equals the description version', () => {
  const changelog = readFileSync(join(packageRoot, 'docs', 'changelog.md'), 'utf8');
  const newest = /^## (\d+\.\d+\.\d+)/m.exec(changelog)?.[1];
  assert.is(newest, API_VERSION);
  assert.is(API_VERSION, '1.12.0');
});

test('no merge conflict markers are left in tracked text files', () => {
  const tracked = execFileSync('git', ['ls-files', '*.md', '*.ts', '*.js', '*.json', '*.njk', '*.sql', '*.css', '*.mjs'], { cwd: packageRoot, encoding: 'utf8' }).split('\n').filter(Boolean);
  const marked = tracked.filter((file) => /^(<{7}|>{7})( |$)|^={7}$/m.test(readFileSync(join(packageRoot, file), 'utf8')));
  assert.equal(marked, []);
});

test.run();
