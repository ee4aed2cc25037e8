/**
 * JSON over HTTP to another svc node (an edge to its origin's API): one request, a time limit, the
 * API's error shape read back. Retrying is the caller's business (QuietRetry).
 */

/** An answer in the API's error shape (`{error:{code,message,details}}`), or a non-JSON one. */
export class JsonApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface JsonRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** `Authorization: Bearer <token>`. */
  bearer?: string;
  timeoutMs?: number;
}

/** The body of a 2xx answer; a JsonApiError for any other; a network failure or timeout as thrown by fetch. */
export async function requestJson<T>(url: string, opts: JsonRequest = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.bearer) headers.authorization = `Bearer ${opts.bearer}`;
  const res = await fetch(url, {
    method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await res.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON: a proxy's or a server's own page; reported by status below.
  }
  if (res.ok) return parsed as T;
  const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (error && typeof error.code === 'string')
    throw new JsonApiError(
      res.status,
      error.code,
      typeof error.message === 'string' ? error.message : error.code,
      typeof error.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : {},
    );
  throw new JsonApiError(res.status, 'unexpected_response', `${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
}
