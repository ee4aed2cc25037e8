/**
 * Examples in the OpenAPI description. A response, or a webhook body, shows the
 * nearest example the schemas give: the schema's own `examples`, else one composed from its
 * fields' examples (and consts, defaults, enums). Whole-object examples are written where
 * the fields must agree with each other (a live stream); elsewhere the fields' own examples
 * suffice. test/http/openapi-examples.test.ts validates every example against its schema.
 */

type Schema = Record<string, unknown>;

/** What a field without examples shows; chosen to pass the usual formats. */
const BY_FORMAT: Record<string, string> = {
  'date-time': '2026-11-22T14:00:00.000Z',
  date: '2026-11-22',
  uri: 'https://svc.example.com',
  email: 'ops@example.com',
};

const REF_PREFIX = '#/components/schemas/';

/** An example value of `schema`; `$ref`s are looked up in `components` (each followed once per path). */
export function exampleOf(
  schema: Schema,
  components: Record<string, Schema>,
  followed: readonly string[] = [],
): unknown {
  const ref = schema.$ref;
  if (typeof ref === 'string' && ref.startsWith(REF_PREFIX)) {
    const name = ref.slice(REF_PREFIX.length);
    const target = components[name];
    // A recursive schema ends where it would repeat itself.
    if (!target || followed.includes(name)) return null;
    return exampleOf(target, components, [...followed, name]);
  }
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('const' in schema) return schema.const;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (branches?.length) {
    const branch = branches.find((b) => b.type !== 'null') ?? (branches[0] as Schema);
    return exampleOf(branch, components, followed);
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type];
  // Nullable fields show their value, which says more than null.
  switch (types.find((t) => t !== 'null') ?? types[0]) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, field]) => [name, exampleOf(field, components, followed)]),
      );
    }
    case 'array':
      return schema.items ? [exampleOf(schema.items as Schema, components, followed)] : [];
    case 'string':
      return BY_FORMAT[String(schema.format)] ?? 'string';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

interface Media {
  schema?: Schema;
  example?: unknown;
  examples?: Record<string, unknown>;
}
type Operation = {
  requestBody?: { content?: Record<string, Media> };
  responses?: Record<string, { content?: Record<string, Media> }>;
};

/** Gives every response and every webhook body that has none the example of its schema. */
export function addExamples(doc: Record<string, unknown>): Record<string, unknown> {
  const components = ((doc.components as { schemas?: Record<string, Schema> } | undefined)?.schemas ?? {}) as Record<
    string,
    Schema
  >;
  const fill = (media: Media) => {
    if (media.schema && media.example === undefined && media.examples === undefined)
      media.example = exampleOf(media.schema, components);
  };
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Operation>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      for (const response of Object.values(op.responses ?? {})) Object.values(response.content ?? {}).forEach(fill);
    }
  }
  const webhooks = (doc.webhooks ?? {}) as Record<string, Record<string, Operation>>;
  for (const item of Object.values(webhooks)) {
    for (const op of Object.values(item)) Object.values(op.requestBody?.content ?? {}).forEach(fill);
  }
  return doc;
}
