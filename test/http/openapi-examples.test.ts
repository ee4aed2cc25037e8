import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EVENT_TYPE_NAMES } from '../../src/domains/ledger/events/outbox.js';
import { makeAjv } from '../../src/platform/http/validation.js';
import { createTestApi, type TestApi } from '../helpers/api.js';

type Schema = Record<string, unknown>;
type Media = { schema?: Schema; example?: unknown; examples?: Record<string, { value: unknown }> };
type Operation = {
  operationId?: string;
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};
type Doc = {
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  webhooks?: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
};

const t = suite<{ env: TestApi; doc: Doc }>(
  'http: the OpenAPI description walked: operation ids, servers, examples, webhooks',
);
t.before(async (ctx) => {
  ctx.env = await createTestApi();
  ctx.doc = (await ctx.env.call('GET', '/openapi.json')).body as Doc;
});
t.after(async (ctx) => {
  await ctx.env.close();
});

const operations = (items: Record<string, Record<string, Operation>>) =>
  Object.entries(items).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

const examplesOf = (media: Media): unknown[] => [
  ...(media.example !== undefined ? [media.example] : []),
  ...Object.values(media.examples ?? {}).map((e) => e.value),
];

/** Validates `value` against a schema of the document with the server's own Ajv (formats, keywords); '' when it passes. */
function problems(doc: Doc, schema: Schema, value: unknown): string {
  const ajv = makeAjv(false);
  // `#/components/...` references resolve against the root of what is compiled.
  const validate = ajv.compile({ ...schema, components: doc.components });
  return validate(value) ? '' : ajv.errorsText(validate.errors);
}

t('every operation has an operationId: camelCase, unique', ({ doc }) => {
  const ids = operations(doc.paths).map(({ key, op }) => {
    assert.ok(op.operationId, `${key}: operationId`);
    assert.match(op.operationId, /^[a-z][a-zA-Z0-9]*$/, `${key}: camelCase`);
    return op.operationId;
  });
  assert.ok(ids.length >= 40, `${ids.length} operations`);
  assert.is(new Set(ids).size, ids.length, 'unique');
});

t('servers names the appliance base_url', ({ env, doc }) => {
  assert.equal(
    doc.servers?.map((s) => s.url),
    [env.config.publicUrls.base_url],
  );
});

t(
  'every success response with content has an example that validates against its schema; so does every error example',
  ({ doc }) => {
    let success = 0;
    for (const { key, op } of operations(doc.paths)) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        for (const [type, media] of Object.entries(response.content ?? {})) {
          const where = `${key} ${status} ${type}`;
          assert.ok(media.schema, `${where}: schema`);
          const examples = examplesOf(media);
          assert.ok(examples.length > 0, `${where}: an example`);
          if (status.startsWith('2')) success++;
          for (const example of examples)
            assert.is(problems(doc, media.schema, example), '', `${where}: the example validates`);
        }
      }
    }
    assert.ok(success >= 40, `${success} success responses`);
  },
);

t('request body examples validate against their schemas', ({ doc }) => {
  for (const { key, op } of operations(doc.paths)) {
    const media = op.requestBody?.content?.['application/json'];
    for (const example of (media?.schema?.examples as unknown[] | undefined) ?? []) {
      assert.is(problems(doc, media?.schema as Schema, example), '', `${key}: body example`);
    }
  }
});

t(
  'webhooks: every event type the appliance writes, each body with headers and an example that validates',
  ({ doc }) => {
    assert.equal(Object.keys(doc.webhooks ?? {}).sort(), [...EVENT_TYPE_NAMES].sort());
    for (const [type, item] of Object.entries(doc.webhooks ?? {})) {
      const op = item.post as Operation & { parameters?: { name: string; in: string }[]; summary?: string };
      assert.ok(op?.summary, `${type}: summary`);
      assert.equal(
        op.parameters?.map((p) => `${p.in} ${p.name}`),
        ['header webhook-id', 'header webhook-timestamp', 'header webhook-signature'],
        `${type}: headers`,
      );
      const media = op.requestBody?.content?.['application/json'];
      assert.ok(media?.schema && media.example, `${type}: schema and example`);
      assert.is((media.example as { type: string }).type, type);
      assert.is(problems(doc, media.schema, media.example), '', `${type}: the example validates`);
      // The schema is strict about the type: a body of another type does not pass.
      assert.ok(
        problems(doc, media.schema, {
          ...(media.example as object),
          type: type === 'stream.live' ? 'stream.ended' : 'stream.live',
        }),
        `${type}: another type fails`,
      );
    }
  },
);

t.run();
