import { Flags } from '@oclif/core';
import { ApiResponseError, CliError, type ApiErrorDocument } from './errors.js';

/** Flags of the commands that go through the HTTP API. */
export const apiFlags = {
  'api-key': Flags.string({ summary: 'API key of the account (svc_live_...).', env: 'SVC_API_KEY' }),
  'base-url': Flags.string({ summary: 'API base URL; default: base_url of the data dir config.' }),
};

type Query = Record<string, string | number | boolean | undefined>;

/** A thin client of the appliance's own HTTP API; API errors come back as ApiResponseError. */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
  ) {}

  async request<T>(method: string, path: string, opts: { body?: unknown; query?: Query; headers?: Record<string, string> } = {}): Promise<T> {
    if (!this.apiKey) {
      throw new CliError('unauthorized', 'an API key is needed: pass --api-key or set SVC_API_KEY (create one with `svc api-keys create --account ID`)');
    }
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = { authorization: `Bearer ${this.apiKey}`, accept: 'application/json', ...opts.headers };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(url, { method, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body), signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      const { cause } = err as { cause?: { code?: string; message?: string } };
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      throw new CliError('api_unreachable', `cannot reach the API at ${this.baseUrl} (${reason}): start the appliance with \`svc up --detach\` or pass --base-url`);
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      throw new CliError('bad_response', `${method} ${url.pathname} answered ${res.status} with a body that is not JSON: is --base-url the svc API?`);
    }
    if (!res.ok) {
      if (isErrorDocument(body)) throw new ApiResponseError(res.status, body);
      throw new CliError('bad_response', `${method} ${url.pathname} answered ${res.status} without an error document: is --base-url the svc API?`);
    }
    return body as T;
  }
}

function isErrorDocument(body: unknown): body is ApiErrorDocument {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}
