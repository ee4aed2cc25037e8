import type { FastifyInstance, FastifyRequest } from 'fastify';
import { findAccountByApiKeyHash, type Account } from './queries.js';
import { API_KEY_PREFIX } from './service.js';
import { ApiError } from '../../core/errors.js';
import { sha256 } from '../../core/ids.js';
import type { Sql } from '../../platform/db/connect.js';

declare module 'fastify' {
  interface FastifyRequest {
    account: Account | null;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** `Authorization: Bearer svc_live_...` → the account; `401 unauthorized` otherwise. */
export function registerApiKeyAuth(app: FastifyInstance, sql: Sql): void {
  app.decorateRequest('account', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const match = BEARER.exec(request.headers.authorization ?? '');
    const token = match?.[1];
    if (!token || !token.startsWith(API_KEY_PREFIX) || token.length > 200) {
      throw new ApiError('unauthorized', 'Send a valid API key: `Authorization: Bearer svc_live_...`.');
    }
    const account = await findAccountByApiKeyHash(sql, sha256(token));
    if (!account) throw new ApiError('unauthorized', 'The API key is not valid (wrong or revoked).');
    request.account = account;
  });
}

/** For the operations whose spec lists 403: a pending or suspended account is refused. */
export function assertAccountActive(account: Account): void {
  if (account.state === 'pending') throw new ApiError('account_pending', 'The account is awaiting approval by the operator.');
  if (account.state === 'suspended') throw new ApiError('tenant_suspended', 'The account is suspended; contact the operator.');
}

export function requireAccount(request: FastifyRequest): Account {
  if (!request.account) throw new ApiError('unauthorized', 'Send a valid API key: `Authorization: Bearer svc_live_...`.');
  return request.account;
}

declare module 'fastify' {
  interface FastifyInstance {
    authenticate: (request: FastifyRequest) => Promise<void>;
  }
}
