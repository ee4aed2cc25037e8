import { setTimeout as sleep } from 'node:timers/promises';
import { Flags } from '@oclif/core';
import pRetry, { AbortError } from 'p-retry';
import { ApiResponseError, CliError, type ApiErrorDocument } from './errors.js';

/** Default for --retry-seconds: long enough to ride out a database restart or the API workers' restart. */
const DEFAULT_RETRY_SECONDS = 30;
/** A Retry-After above this is not waited for in full: the CLI asks again sooner and counts against its budget. */
const MAX_RETRY_AFTER_SECONDS = 10;
const MAX_ATTEMPTS = 8;

/** Flags of the commands that go through the HTTP API. */
export const apiFlags = {
  'api-key': Flags.string({ summary: 'API key of the account (svc_live_...).', env: 'SVC_API_KEY' }),
  'base-url': Flags.string({ summary: 'API base URL; default: base_url of the data dir config.' }),
  'retry-seconds': Flags.integer({
    summary: `Keep retrying a 5xx or an unreachable API for up to this many seconds (default ${DEFAULT_RETRY_SECONDS}; 0: never).`,
    env: 'SVC_RETRY_SECONDS',
    min: 0,
    max: 3600,
  }),
};

type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  /** A POST that changes nothing on the server (signing a URL): safe to send again like a GET. */
  readOnly?: boolean;
}

export interface RetryOptions {
  /** Total time retries may take, from the first attempt. */
  budgetSeconds: number;
  /** A line for people on each retry (stderr; stdout stays the command's output). */
  progress: (line: string) => void;
}

/**
 * A failed attempt, with what the retry rule needs: whether the request may have reached a
 * process that could act on it, and how long the server asked us to wait.
 */
class AttemptFailure extends Error {
  constructor(
    readonly error: ApiResponseError | CliError,
    readonly reason: string,
    readonly mayHaveArrived: boolean,
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(error.message);
  }
}

/** Socket failures of a server that is (re)starting or went away (undici names its own). */
const TRANSIENT_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Methods whose repetition leaves the server as one request would (PATCH sets fields; see docs/decisions.md). */
const REPEATABLE_METHODS = new Set(['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']);

/** A thin client of the appliance's own HTTP API; API errors come back as ApiResponseError. */
export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string | undefined,
    private readonly retry: RetryOptions = { budgetSeconds: 0, progress: () => {} },
  ) {}

  /**
   * 5xx answers and connection failures are retried with backoff (Retry-After when the API sends
   * one, capped) within the retry budget, but a request that repetition could apply twice (a POST
   * without Idempotency-Key that is not read-only) only when it cannot have arrived: the
   * connection was refused. 4xx answers are never retried.
   */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    if (!this.apiKey) {
      throw new CliError(
        'unauthorized',
        'an API key is needed: pass --api-key or set SVC_API_KEY (create one with `svc api-keys create --account ID`)',
      );
    }
    const repeatable =
      REPEATABLE_METHODS.has(method) ||
      opts.readOnly === true ||
      Object.keys(opts.headers ?? {}).some((h) => h.toLowerCase() === 'idempotency-key');
    const startedAt = performance.now();
    const budgetMs = this.retry.budgetSeconds * 1000;
    const willRetry = (err: AttemptFailure, attemptNumber: number): boolean => {
      if (attemptNumber >= MAX_ATTEMPTS || (err.mayHaveArrived && !repeatable)) return false;
      return performance.now() - startedAt + waitMs(err, attemptNumber) <= budgetMs;
    };
    try {
      return await pRetry(
        async (attemptNumber) => {
          try {
            return await this.attempt<T>(method, path, opts);
          } catch (err) {
            // p-retry retries every error and calls onFailedAttempt even for one it will not retry: decide here.
            if (err instanceof AttemptFailure && willRetry(err, attemptNumber)) throw err;
            throw new AbortError(err as Error);
          }
        },
        {
          // The wait is ours (onFailedAttempt), so that Retry-After can set it.
          retries: MAX_ATTEMPTS - 1,
          minTimeout: 0,
          maxTimeout: 0,
          randomize: false,
          onFailedAttempt: async (err) => {
            if (!(err instanceof AttemptFailure)) return;
            const ms = waitMs(err, err.attemptNumber);
            this.retry.progress(
              `${err.reason}; retrying in ${Math.round(ms / 100) / 10} s (attempt ${err.attemptNumber + 1}/${MAX_ATTEMPTS})`,
            );
            await sleep(ms);
          },
        },
      );
    } catch (err) {
      if (err instanceof AttemptFailure) throw err.error;
      throw err;
    }
  }

  private async attempt<T>(method: string, path: string, opts: RequestOptions): Promise<T> {
    const url = new URL(path, this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: 'application/json',
      ...opts.headers,
    };
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal: AbortSignal.timeout(30_000),
      });
      text = await res.text();
    } catch (err) {
      const { cause } = err as { cause?: { code?: string; message?: string } };
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      const error = new CliError(
        'api_unreachable',
        `cannot reach the API at ${this.baseUrl} (${reason}): start the appliance with \`svc up --detach\` or pass --base-url`,
      );
      // A bad address or an unknown host does not get better by waiting.
      if (!TRANSIENT_NETWORK_CODES.has(cause?.code ?? '') && (err as Error).name !== 'TimeoutError') throw error;
      // Refused: nothing was sent. A reset or a timeout may come after the server read the request.
      throw new AttemptFailure(error, `cannot reach the API (${reason})`, cause?.code !== 'ECONNREFUSED', undefined);
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      throw new CliError(
        'bad_response',
        `${method} ${url.pathname} answered ${res.status} with a body that is not JSON: is --base-url the svc API?`,
      );
    }
    if (!res.ok) {
      if (!isErrorDocument(body)) {
        throw new CliError(
          'bad_response',
          `${method} ${url.pathname} answered ${res.status} without an error document: is --base-url the svc API?`,
        );
      }
      const error = new ApiResponseError(res.status, body);
      if (res.status < 500) throw error;
      throw new AttemptFailure(
        error,
        `API answered ${res.status} ${body.error.code}`,
        true,
        retryAfter(res.headers.get('retry-after')),
      );
    }
    return body as T;
  }
}

/** Retry-After in seconds (capped), else exponential backoff from 1 s. */
function waitMs(err: AttemptFailure, attemptNumber: number): number {
  if (err.retryAfterSeconds !== undefined) return Math.min(err.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS) * 1000;
  return Math.min(2 ** (attemptNumber - 1), 8) * 1000;
}

/** Only the delta-seconds form: the API and nginx send no dates. */
function retryAfter(header: string | null): number | undefined {
  if (header === null || !/^\d+$/.test(header.trim())) return undefined;
  return Number(header.trim());
}

export function retryBudget(flag: number | undefined): number {
  return flag ?? DEFAULT_RETRY_SECONDS;
}

function isErrorDocument(body: unknown): body is ApiErrorDocument {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}
