import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiKeys } from './key-cache.js';
import type { Account } from './model.js';
import { API_KEY_PREFIX } from './service.js';
import { ApiError } from '../../../core/errors.js';

const CALLER = Symbol('caller');

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's account on a keyed route (see `keyed`); reading it on any other route is `401 unauthorized`. */
    readonly account: Account;
    [CALLER]: Account | null;
  }
  interface FastifyInstance {
    authenticate: (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const SEND_A_KEY = 'Send a valid API key: `Authorization: Bearer svc_live_...`.';

/** `Authorization: Bearer svc_live_...` → the account; `401 unauthorized` otherwise. */
export function registerApiKeyAuth(app: FastifyInstance, keys: ApiKeys): void {
  app.decorateRequest(CALLER, null);
  app.decorateRequest('account', {
    getter(this: FastifyRequest): Account {
      const account = this[CALLER];
      if (!account) throw new ApiError('unauthorized', SEND_A_KEY);
      return account;
    },
  });
  // Callback form: a key this node knows is checked without a promise (see platform/http/server.ts's hooks).
  app.decorate('authenticate', (request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const token = match?.[1];
    if (!token || !token.startsWith(API_KEY_PREFIX) || token.length > 200)
      return done(new ApiError('unauthorized', SEND_A_KEY));
    const known = keys.known(token);
    if (known) {
      request[CALLER] = known;
      return done();
    }
    keys.find(token).then((account) => {
      if (!account) return done(new ApiError('unauthorized', 'The API key is not valid (wrong or revoked).'));
      request[CALLER] = account;
      done();
    }, done);
  });
}

/** For the operations whose spec lists 403: a pending or suspended account is refused. */
function assertAccountActive(account: Account): void {
  if (account.state === 'pending')
    throw new ApiError('account_pending', 'The account is awaiting approval by the operator.');
  if (account.state === 'suspended')
    throw new ApiError('tenant_suspended', 'The account is suspended; contact the operator.');
}

/**
 * A scope of keyed routes, whose handlers read `request.account`: the key is checked on arrival,
 * before the body is read (`401` whatever the body).
 */
export function requireApiKey(scope: FastifyInstance): void {
  scope.addHook('onRequest', scope.authenticate);
}

/**
 * Route option of a keyed operation whose spec lists 403: a pending or suspended account is
 * refused, but only after validation (a bad request is a `400` first). Callback form: nothing to
 * wait for (see the hooks in platform/http/server.ts).
 */
export const activeAccount = {
  preHandler(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
    try {
      assertAccountActive(request.account);
      done();
    } catch (err) {
      done(err as Error);
    }
  },
};
