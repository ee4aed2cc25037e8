import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import swagger from '@fastify/swagger';
import { ApiError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import type { Logger } from '../../core/logger.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { createValidatorCompiler, bodyProblem, validationToApiError } from './validation.js';
import { ErrorBody, hoistResponseExtensions } from './schema-helpers.js';
import { addExamples } from './openapi-examples.js';
import { API_VERSION, openapiInfo } from './openapi.js';

/** 64 KB: the largest valid body (metadata 2 KB, a name, player settings) is far smaller. */
const BODY_LIMIT = 64 * 1024;

export interface ServerOptions {
  logger: Logger;
  /** Addresses whose X-Forwarded-For is believed (nginx on this machine); `loopback` always is. */
  trustedProxies?: string[];
  /** Told of every answered request (the metrics' latency histogram). */
  observe?: (answered: AnsweredRequest) => void;
  /** Parts of the OpenAPI document that are not routes: where the API answers, what it sends. */
  openapi?: { servers?: { url: string; description?: string }[]; webhooks?: Record<string, unknown> };
}

/** One answered request, by its route pattern (never the raw URL: ids would make every path new). */
export interface AnsweredRequest {
  method: string;
  /** The route's pattern; `unmatched` for a path no route serves. */
  route: string;
  status: number;
  seconds: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route whose path holds a secret gives the pattern to report instead (metrics). */
    reportedRoute?: string;
  }
}

/**
 * Fastify with the spec's conventions: request ids, one error shape, strict validation,
 * JSON-only bodies. Domains register their routes on the returned instance.
 */
export async function createServer({
  logger,
  trustedProxies = [],
  observe,
  openapi = {},
}: ServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger.child({ domain: 'http' }),
    // Quiet by default: one line per request is noise for an appliance; errors are still logged.
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'request_id' }),
    genReqId: () => newId('req_'),
    // No child logger per request unless a route logs at a level of its own: building one (bindings,
    // then every level method) was measurable on the read path (issue 16). Lines about a request
    // name it themselves (`request_id`).
    childLoggerFactory: (parent, bindings, opts) =>
      opts.serializers || (opts.level && opts.level !== parent.level) ? parent.child(bindings, opts) : parent,
    // Public endpoints are limited per viewer address: only the appliance's own nginx may name it.
    trustProxy: ['loopback', ...trustedProxies],
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // A path segment that does not decode, or an id longer than any id, names nothing: 404 in the one shape.
    frameworkErrors: (error, request, reply) => {
      const unroutable = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      sendError(
        reply,
        request,
        unroutable
          ? new ApiError('not_found', 'No such resource: the path does not name one.')
          : toApiError(error, request),
      );
    },
  });
  app.setValidatorCompiler(createValidatorCompiler());
  app.setSchemaErrorFormatter((errors, dataVar) => validationToApiError(errors as never, dataVar));
  app.addSchema(ErrorBody);

  // An absent or empty body is "no body" (create takes an optional one); anything else must be JSON.
  app.removeAllContentTypeParsers();
  const parseJson = (_req: FastifyRequest, body: string, done: (err: Error | null, value?: unknown) => void) => {
    if (body.trim() === '') return done(null, undefined);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return done(new ApiError('invalid_request', 'The body is not valid JSON.'));
    }
    // PostgreSQL cannot store U+0000 or an unpaired surrogate, and deep nesting breaks recursive code later: refuse now.
    const problem = bodyProblem(value);
    if (problem)
      return done(new ApiError('invalid_request', problem.message, problem.field ? { field: problem.field } : {}));
    done(null, value);
  };
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(/^application\/[\w.+-]+\+json$/, { parseAs: 'string' }, parseJson);
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer' },
    (_req: FastifyRequest, body: Buffer, done: (err: Error | null, value?: unknown) => void) => {
      if (body.length === 0) return done(null, undefined);
      done(
        new ApiError('invalid_request', 'The body must be JSON with `Content-Type: application/json`.', {
          field: 'content-type',
        }),
      );
    },
  );

  // Hooks that do not wait take Fastify's callback form: an async hook costs a promise and a
  // microtask on every request (issue 16, the read path).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });

  if (observe) {
    app.addHook('onResponse', (request, reply, done) => {
      observe({
        method: request.method,
        route: request.routeOptions.config.reportedRoute ?? request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        seconds: reply.elapsedTime / 1000,
      });
      done();
    });
  }

  // Fastify validates an absent body as null; where the body is optional (`x-optional-body`), absent means `{}`.
  app.addHook('onRoute', (route) => {
    const body = route.schema?.body as Record<string, unknown> | undefined;
    if (!body?.['x-optional-body']) return;
    const absentAsEmpty = async (request: FastifyRequest) => {
      if (request.body === undefined) request.body = {};
    };
    const existing = route.preValidation ? [route.preValidation].flat() : [];
    route.preValidation = [...existing, absentAsEmpty];
  });

  app.setNotFoundHandler(routeNotFound);
  app.setErrorHandler((error: FastifyError, request, reply) => {
    sendError(reply, request, toApiError(error, request));
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: openapiInfo,
      ...openapi,
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: `svc_live_...`' } },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => String(json.$id ?? `def-${i}`) },
    transformObject: (documentObject) =>
      addExamples(
        hoistResponseExtensions((documentObject as { openapiObject: Record<string, unknown> }).openapiObject),
      ),
  });
  app.log.debug({ version: API_VERSION }, 'http server created');
  return app as unknown as FastifyInstance;
}

function toApiError(error: FastifyError | ApiError, request: FastifyRequest): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return validationToApiError(error.validation as never, error.validationContext ?? 'body');
  // Fastify's own client errors (body too large, bad content length, ...): 4xx, never a 500.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    const message =
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? `The body is larger than ${BODY_LIMIT} bytes.` : error.message;
    return new ApiError('invalid_request', message);
  }
  if (isDatabaseUnavailable(error)) {
    // The monitor logs the outage once; a line per request would flood the log.
    request.log.debug({ err: error, request_id: request.id }, 'database unavailable');
    return serviceUnavailable();
  }
  request.log.error({ err: error, request_id: request.id }, 'unhandled error');
  return new ApiError('internal_error', 'Something went wrong on our side; retry with backoff.');
}

/** The 404 of a path no route serves; a scope with its own hooks (CORS) installs it for its prefix too. */
export function routeNotFound(request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, request, new ApiError('not_found', `No route ${request.method} ${request.url.split('?')[0]}.`));
}

/** Seconds a client waits before retrying while the database is away (it is back within seconds, or the operator is at work). */
export const UNAVAILABLE_RETRY_SECONDS = 5;

export const serviceUnavailable = (): ApiError =>
  new ApiError('service_unavailable', 'The database is not answering; retry shortly.', {
    retry_after_seconds: UNAVAILABLE_RETRY_SECONDS,
  });

export function sendError(reply: FastifyReply, request: FastifyRequest, error: ApiError): void {
  // Also here: errors raised before the onRequest hook (unroutable paths) must carry the id too.
  reply.header('x-request-id', request.id);
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
  void reply
    .code(error.status)
    .type('application/json; charset=utf-8')
    .send({ error: { code: error.code, message: error.message, details: error.details, request_id: request.id } });
}
