import cors from '@fastify/cors';
import type {
  FastifyInstance,
  FastifyPluginAsync,
  FastifyPluginOptions,
  FastifyTypeProvider,
  RawServerDefault,
} from 'fastify';
import { requireApiKey } from '../domains/ledger/accounts/auth.js';
import { routeNotFound } from '../platform/http/server.js';

/**
 * Who calls a group of routes, as the hooks and parsers of the group's own Fastify scope. Each group
 * is encapsulated: what a scope adds never reaches another group's routes (keyed routes send no CORS
 * headers, public ones ask for no key).
 */
export type Scope = (scope: FastifyInstance) => void | Promise<void>;

/**
 * Nothing added: the API's root and reference, the player site's pages (the dashboard checks its
 * own token), WHIP (whose plugin holds its own CORS and SDP bodies).
 */
export const open: Scope = () => {};

/** API clients: every route takes an API key, checked on arrival (`401` whatever the body). */
export const keyed: Scope = requireApiKey;

/**
 * Every answer under /v1/embed/, errors included, may be read by any site; credentials are never
 * allowed. Any OPTIONS there is a preflight, with or without `Origin`.
 */
const PUBLIC_CORS = {
  origin: '*',
  methods: 'GET, POST, OPTIONS',
  allowedHeaders: 'content-type',
  maxAge: 86400,
  strictPreflight: false,
};

/** Browsers on any site, without a key: CORS, and unknown paths here are public answers too (their 404 is CORS'd). */
export const anyOrigin: Scope = async (scope) => {
  await scope.register(cors, PUBLIC_CORS);
  scope.setNotFoundHandler(routeNotFound);
};

/** nginx on this machine, whose publish hooks post forms (the API port's nginx answers `/internal/` with 404). */
export const internal: Scope = (scope) => {
  scope.addContentTypeParser<string>('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body)));
  });
};

/** A domain's routes plugin with what it is given, ready to register in a group. */
export type Routes = (group: FastifyInstance) => PromiseLike<unknown>;

export const plugin =
  <O extends FastifyPluginOptions, P extends FastifyTypeProvider>(
    routes: FastifyPluginAsync<O, RawServerDefault, P>,
    options: O,
  ): Routes =>
  (group) =>
    group.register(routes, options);

/** A line of the mount table: routes plugins answering in one scope, under a prefix if any. */
export interface Mount {
  scope: Scope;
  prefix?: string;
  routes: Routes[];
}

/** Registers the table top to bottom (the order is the API reference's order of operations); gaps are skipped. */
export async function mount(app: FastifyInstance, table: (Mount | undefined)[]): Promise<void> {
  for (const { scope, prefix, routes } of table.filter((line) => line !== undefined)) {
    await app.register(
      async (group) => {
        await scope(group);
        for (const register of routes) await register(group);
      },
      { prefix },
    );
  }
}
