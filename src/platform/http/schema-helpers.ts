import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { STATUS_OF, type ErrorCode } from '../../core/errors.js';

/**
 * `type: [T, "null"]`: validates and serialises as the spec's "X or null" without an anyOf. An
 * `enum` gets null too, or null would pass the type and fail the enum.
 */
export function Nullable<T extends TSchema>(schema: T): ReturnType<typeof Type.Unsafe<Static<T> | null>> {
  const { type, ...rest } = schema as unknown as { type: string } & Record<string, unknown>;
  const nullableEnum = Array.isArray(rest.enum) ? { enum: [...(rest.enum as unknown[]), null] } : {};
  return Type.Unsafe<Static<T> | null>({ ...rest, ...nullableEnum, type: [type, 'null'] });
}

export const Timestamp = Type.String({ format: 'date-time', examples: ['2026-11-22T14:00:00.000Z'] });

export const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Object({}, { additionalProperties: true }),
      request_id: Type.String({ pattern: '^req_' }),
    }),
  },
  { $id: 'Error' },
);

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or invalid credentials',
  402: 'Insufficient credit',
  403: 'Account not allowed',
  404: 'Not found',
  409: 'Conflict with the resource state',
  422: 'Idempotency key reused',
  429: 'Limit reached',
  503: 'Unavailable',
};

/**
 * Error responses of a route, grouped by status, each carrying `x-error-codes` and an example:
 * the machine-readable description lists the codes a client can meet. Every route that has
 * error responses reads the database, so each can also answer `service_unavailable`.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'service_unavailable' as const]) {
    const status = STATUS_OF[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    const first = list[0] as ErrorCode;
    out[status] = Type.Object(ErrorBody.properties, {
      description: DESCRIPTIONS[status] ?? 'Error',
      'x-error-codes': list,
      examples: [
        {
          error: {
            code: first,
            message: EXAMPLE_MESSAGES[first] ?? 'See the code.',
            details: EXAMPLE_DETAILS[first] ?? {},
            request_id: 'req_3k2j4h5g6f7d8s9a0q1w',
          },
        },
      ],
    });
  }
  return out;
}

const EXAMPLE_MESSAGES: Partial<Record<ErrorCode, string>> = {
  invalid_request: 'Unknown field `colour` in body.',
  unauthorized: 'Send a valid API key: `Authorization: Bearer svc_live_...`.',
  insufficient_credit: 'Credit is below 1.00 USD; add credit to create streams.',
  account_pending: 'The account is awaiting approval by the operator.',
  not_found: 'No such stream.',
  stream_not_pending: 'The stream is live; this is possible only while it is pending.',
  idempotency_key_reused: 'This Idempotency-Key was used with a different body; use a new key.',
  limit_pending_streams: '2 streams are waiting to go live, the most allowed; start or delete one first.',
  limit_webhook_endpoints: '5 webhook endpoints exist, the most allowed; delete one first.',
  limit_stream_outputs: '5 outputs exist on this stream, the most allowed; delete one first.',
  recording_not_failed: 'The recording is ready; only a failed one can be made again.',
  limit_channels: '1000 channels exist, the most allowed; delete one first.',
  channel_not_empty:
    'The channel has streams that are pending or live (str_8f3k2m9q7x1c4v6b0n5z: live); end or cancel them first (DELETE /v1/streams/{id}).',
  service_unavailable: 'The database is not answering; retry shortly.',
};

/**
 * The query of a route that takes none: unknown request fields are refused (spec, conventions), in
 * the query too. Without a querystring schema Fastify would accept any query silently.
 */
export const NoQuery = Type.Object({}, { additionalProperties: false });

/** What the API puts in `details` with each example message (an example must look like a real answer). */
const EXAMPLE_DETAILS: Partial<Record<ErrorCode, Record<string, unknown>>> = {
  invalid_request: { field: 'colour' },
  insufficient_credit: { available_usd: '0.40', required_usd: '1.00' },
  stream_not_pending: { status: 'live' },
  idempotency_key_reused: { field: 'idempotency-key' },
  limit_pending_streams: { limit: 2, current: 2 },
  limit_webhook_endpoints: { limit: 5, current: 5 },
  limit_stream_outputs: { limit: 5, current: 5 },
  recording_not_failed: { status: 'ready' },
  limit_channels: { limit: 1000, current: 1000 },
  channel_not_empty: { stream_ids: ['str_8f3k2m9q7x1c4v6b0n5z'] },
  service_unavailable: { retry_after_seconds: 5 },
};

/** A string enum as `{type, enum}` (plain in OpenAPI, "must be one of" in errors). */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/**
 * OpenAPI post-processing: error codes and examples belong to the response object, and a body
 * marked `x-optional-body` is not required.
 */
export function hoistResponseExtensions(doc: Record<string, unknown>): Record<string, unknown> {
  const paths = (doc.paths ?? {}) as Record<string, Record<string, Record<string, unknown>>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      const body = op.requestBody as
        { required?: boolean; content?: Record<string, { schema?: Record<string, unknown> }> } | undefined;
      const bodySchema = body?.content?.['application/json']?.schema;
      if (body && bodySchema?.['x-optional-body']) {
        body.required = false;
        delete bodySchema['x-optional-body'];
      }
      const responses = (op.responses ?? {}) as Record<
        string,
        { content?: Record<string, { schema?: Record<string, unknown>; examples?: unknown }> } & Record<string, unknown>
      >;
      for (const response of Object.values(responses)) {
        const media = response.content?.['application/json'];
        const schema = media?.schema;
        if (!media || !schema?.['x-error-codes']) continue;
        response['x-error-codes'] = schema['x-error-codes'];
        delete schema['x-error-codes'];
        const examples = schema.examples as unknown[] | undefined;
        if (examples?.length)
          media.examples = Object.fromEntries(examples.map((e, i) => [`example${i + 1}`, { value: e }]));
      }
    }
  }
  return doc;
}
