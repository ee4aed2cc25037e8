/** The interface version; the changelog's newest entry must agree (test/docs checks it). */
export const API_VERSION = '1.12.0';

export const openapiInfo = {
  title: 'svc live video API',
  version: API_VERSION,
  description:
    'Create live streams, publish over RTMP or WHIP, watch through signed HLS and the hosted player. ' +
    'Errors share one shape: `{"error": {"code", "message", "details", "request_id"}}`; ' +
    'each error response lists its codes in `x-error-codes`. ' +
    'Clients must ignore response fields they do not know: fields are added within a version.',
};

/** The security of an operation that takes an API key (`components.securitySchemes.apiKey`). */
export const KEYED = [{ apiKey: [] }];

/** What the API reference says of one operation; its route spreads it into the route's schema. */
export interface OperationDocs {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security?: typeof KEYED;
}

type Prose = Omit<OperationDocs, 'operationId' | 'tags' | 'security'> & Partial<Pick<OperationDocs, 'security'>>;

/**
 * A routes module's operations by `operationId`, each with the tags (and the security) they share: the prose of
 * the reference stays out of the route handlers.
 */
export function operations<K extends string>(
  shared: Pick<OperationDocs, 'tags' | 'security'>,
  prose: Record<K, Prose>,
): Record<K, OperationDocs> {
  const entries = Object.entries<Prose>(prose).map(([operationId, docs]) => [
    operationId,
    { operationId, ...shared, ...docs },
  ]);
  return Object.fromEntries(entries) as Record<K, OperationDocs>;
}
