import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { deriveKey } from '../../../config/secrets.js';

/** Internal hook paths carry this token: the API may listen on every address. */
export const hookToken = (signingKey: string): string =>
  deriveKey(signingKey, 'svc ingest hooks v1').toString('base64url');

/** What the ingest hooks need from the live pipeline. */
export interface PublisherGate {
  /** true: nginx lets the publisher in. */
  /** `relay`: the one-time credential the appliance's own WHIP relay publishes with instead of a key. */
  admit(req: PublishHook): Promise<boolean>;
  left(req: { name: string; clientId: string }): Promise<void>;
}

/** What nginx-rtmp's `on_publish` says of a publisher (its URL's query string arrives as fields). */
export interface PublishHook {
  name: string;
  key: string | undefined;
  relay: string | undefined;
  clientId: string;
  addr: string;
  /** The publisher came over RTMPS (its tcUrl says so): nginx's stream module carries its TLS. */
  rtmps: boolean;
}

/** Where the hooks answer: nginx is told this path (the internal scope's prefix). */
export const hooksPath = (token: string): string => `/internal/ingest/${token}`;

/** The token stays out of the metrics' route labels. */
const reported = (hook: string) => ({ reportedRoute: `/internal/ingest/:token/${hook}` });

const LOOPBACK = ['127.0.0.1', '::1'];
/** An IPv4 peer of a dual-stack socket comes as `::ffff:a.b.c.d`. */
const unmapped = (address: string): string => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
/**
 * nginx-rtmp's form fields (the internal scope parses forms), not validated by a schema: a hook
 * refuses with its 403, never a 400.
 */
type HookRoute = { Body: Record<string, string | undefined> | undefined };

/**
 * nginx-rtmp's `on_publish` / `on_publish_done`, on the API, mounted in the internal scope under a
 * path holding `hookToken` (the API may listen on every address) and reached over loopback. Left
 * out of the API description: they are not part of the interface. `localHost`: the address nginx
 * reaches the appliance at when it listens on one address only (`listen_host`); nginx's
 * connections then come from it, not from loopback.
 */
export const ingestHooks: FastifyPluginAsync<{ gate: PublisherGate; localHost: string }> = async (
  scope,
  { gate, localHost },
) => {
  // The socket's own peer, never request.ip: that one believes X-Forwarded-For from nginx, and
  // nginx (API workers) or a proxy on this machine would make every client look like loopback.
  const nginxAt = new Set([...LOOPBACK, unmapped(localHost)]);
  const fields = (request: FastifyRequest<HookRoute>) => request.body ?? {};
  const fromNginx = (request: FastifyRequest) => nginxAt.has(unmapped(request.socket.remoteAddress ?? ''));

  scope.post<HookRoute>('/publish', { schema: { hide: true }, config: reported('publish') }, async (request, reply) => {
    const f = fields(request);
    if (!fromNginx(request) || f.call !== 'publish' || !f.name || !f.clientid) return reply.code(403).send('');
    const ok = await gate.admit({
      name: f.name,
      key: f.key,
      relay: f.relay,
      clientId: f.clientid,
      addr: f.addr ?? '',
      rtmps: (f.tcurl ?? '').toLowerCase().startsWith('rtmps://'),
    });
    return reply.code(ok ? 200 : 403).send('');
  });

  scope.post<HookRoute>(
    '/publish_done',
    { schema: { hide: true }, config: reported('publish_done') },
    async (request, reply) => {
      const f = fields(request);
      if (!fromNginx(request) || !f.name || !f.clientid) return reply.code(403).send('');
      await gate.left({ name: f.name, clientId: f.clientid });
      return reply.code(200).send('');
    },
  );
};
