/** Renders the API reference (Markdown) and the plain index from the OpenAPI document. */

interface OpenApiOperation {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    schema?: Record<string, unknown>;
    description?: string;
  }[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
  responses?: Record<
    string,
    { description?: string; 'x-error-codes'?: string[]; content?: Record<string, { schema?: Record<string, unknown> }> }
  >;
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
  webhooks?: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Record<string, unknown>> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(doc: OpenApiDocument): { method: string; path: string; op: OpenApiOperation }[] {
  const out: { method: string; path: string; op: OpenApiOperation }[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) out.push({ method: method.toUpperCase(), path, op });
    }
  }
  return out;
}

export function renderIndex(doc: OpenApiDocument): string {
  const lines = operations(doc).map(({ method, path, op }) =>
    `${method.padEnd(6)} ${path}  ${op.summary ?? ''}`.trimEnd(),
  );
  return `${doc.info.title} ${doc.info.version}\n\n${lines.join('\n')}\n`;
}

function typeOf(schema: Record<string, unknown> | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return String(schema.$ref).replace('#/components/schemas/', '');
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as Record<string, unknown>[]).map(typeOf).join(' or ');
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any');
  if (schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'))) {
    return `${type} of ${typeOf(schema.items as Record<string, unknown>)}`;
  }
  return type;
}

function rules(schema: Record<string, unknown>): string {
  const parts: string[] = [];
  if (schema.enum) parts.push(`one of ${(schema.enum as unknown[]).map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  if (schema.minimum !== undefined) parts.push(`min ${String(schema.minimum)}`);
  if (schema.maximum !== undefined) parts.push(`max ${String(schema.maximum)}`);
  if (schema.minLength !== undefined) parts.push(`min length ${String(schema.minLength)}`);
  if (schema.maxLength !== undefined) parts.push(`max length ${String(schema.maxLength)}`);
  if (schema['x-max-bytes'] !== undefined) parts.push(`at most ${String(schema['x-max-bytes'])} bytes of JSON`);
  if (schema.pattern) parts.push(`pattern \`${String(schema.pattern)}\``);
  if (schema.default !== undefined) parts.push(`default \`${JSON.stringify(schema.default)}\``);
  if (schema.description) parts.push(String(schema.description));
  return parts.join('; ');
}

function fieldTable(schema: Record<string, unknown>): string[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(props).map(
    ([name, s]) => `| \`${name}\` | ${typeOf(s)} | ${required.has(name) ? 'yes' : 'no'} | ${rules(s)} |`,
  );
  if (!rows.length) return [];
  return ['| Field | Type | Required | Rules |', '|---|---|---|---|', ...rows];
}

export function renderReference(doc: OpenApiDocument): string {
  const out: string[] = [
    `# API reference (${doc.info.version})`,
    '',
    '<!-- Generated from the OpenAPI document by `npm run docs`; edit the route schemas, not this file. -->',
    '',
    doc.info.description ?? '',
    '',
    'The same description is served as `GET /openapi.json`, browsable at `GET /reference/` (interactive, served by the appliance itself), and typed for TypeScript clients in `docs/client/` of the source.',
    '',
  ];
  for (const { method, path, op } of operations(doc)) {
    out.push(
      `## ${method} ${path}`,
      '',
      op.summary ? `**${op.summary}.** ${op.description ?? ''}`.trim() : (op.description ?? ''),
      '',
    );
    out.push(op.security?.length ? 'Auth: `Authorization: Bearer <API key>`.' : 'Auth: none.', '');
    const params = op.parameters ?? [];
    if (params.length) {
      out.push('| Parameter | In | Type | Required | Rules |', '|---|---|---|---|---|');
      for (const p of params)
        out.push(
          `| \`${p.name}\` | ${p.in} | ${typeOf(p.schema)} | ${p.required ? 'yes' : 'no'} | ${rules({ ...p.schema, description: p.description ?? p.schema?.description })} |`,
        );
      out.push('');
    }
    const body = op.requestBody?.content?.['application/json']?.schema;
    if (body) out.push('Body (unknown fields are refused):', '', ...fieldTable(body), '');
    out.push('| Status | Meaning | Error codes |', '|---|---|---|');
    for (const [status, res] of Object.entries(op.responses ?? {})) {
      const schema = res.content?.['application/json']?.schema;
      const codes = (res['x-error-codes'] ?? (schema?.['x-error-codes'] as string[] | undefined) ?? [])
        .map((c) => `\`${c}\``)
        .join(', ');
      const meaning = res.description && res.description !== 'Default Response' ? res.description : typeOf(schema);
      out.push(`| ${status} | ${meaning} | ${codes} |`);
    }
    out.push('');
  }
  const events = Object.entries(doc.webhooks ?? {});
  if (events.length) {
    out.push(
      '# Webhook events',
      '',
      "Signed `POST` requests to the account's endpoints (headers `webhook-id`, `webhook-timestamp`, `webhook-signature`); the body is `{type, timestamp, data}`.",
      '',
    );
    out.push('| Type | When | `data` |', '|---|---|---|');
    for (const [type, item] of events) {
      const data = (
        item.post?.requestBody?.content?.['application/json']?.schema?.properties as
          Record<string, Record<string, unknown>> | undefined
      )?.data;
      out.push(`| \`${type}\` | ${item.post?.summary ?? ''} | ${typeOf(data)} |`);
    }
    out.push('');
  }
  out.push('# Schemas', '');
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    out.push(`## ${name}`, '', String(schema.description ?? ''), '', ...fieldTable(schema), '');
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}
