import { Type, type TSchema, type Static } from '@sinclair/typebox';
import { STATUS_OF, type ErrorCode } from '../core/errors.js';

/** `type: [T, "null"]`: validates and serialises as the spec's "X or null" without an anyOf. */
export function Nullable<T extends TSchema>(schema: T): ReturnType<typeof Type.Unsafe<Static<T> | null>> {
  const { type, ...rest } = schema as unknown as { type: string } & Record<string, unknown>;
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
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
 * the machine-readable description lists the codes a client can meet.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, TSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = STATUS_OF[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, TSchema> = {};
  for (const [status, list] of byStatus) {
    out[status] = Type.Ref(ErrorBody, {
      description: DESCRIPTIONS[status] ?? 'Error',
      'x-error-codes': list,
    });
  }
  return out;
}

export const exampleError = (code: ErrorCode, message: string) => ({
  error: { code, message, details: {}, request_id: 'req_3k2j4h5g6f7d8s9a0q1w' },
});
