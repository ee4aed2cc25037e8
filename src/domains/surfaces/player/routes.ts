import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ApiError } from '../../../core/errors.js';
import { CHANNEL_ID } from '../../streams/model.js';
import type { ChannelEmbed, Embed } from '../embed/schemas.js';
import { STREAM_ID, type LatencyMode } from '../../streams/model.js';
import { registerAssetRoute } from '../../../platform/http/static-assets.js';
import { loadPlayerAssets, type PlayerAssets } from './assets.js';
import { createPlayerPages, type PlayerPages } from './page.js';

/**
 * Where the page gets its embed; throws `ApiError('not_found')` or `ApiError('rate_limited')`.
 * The latency mode is not in the embed read (its shape is the spec's): the page carries it.
 */
export interface EmbedSource {
  embed(
    id: string,
    address: string,
  ): Promise<{ embed: Embed; allowedDomains: string[] | null; latencyMode?: LatencyMode }>;
  /** The channel embed read, with the page's needs for the stream it shows (as `embed`'s). */
  channel?(
    id: string,
    address: string,
  ): Promise<{ channel: ChannelEmbed; allowedDomains: string[] | null; latencyMode?: LatencyMode }>;
}

/** nginx micro-caches the page for a second: it depends on the embed only, never on the viewer. */
const MICRO = 'public, max-age=1';
/** Allowed domains are validated on save; anything else never reaches a header. */
const HOST = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$/;

/**
 * Who may frame the player. Each allowed host on both schemes (sites still on http embed too);
 * an empty list lets nobody; null lets anybody.
 */
export function frameAncestors(allowedDomains: string[] | null): string {
  if (allowedDomains === null) return '*';
  const hosts = allowedDomains.filter((h) => HOST.test(h));
  return hosts.length ? hosts.flatMap((h) => [`https://${h}`, `http://${h}`]).join(' ') : "'none'";
}

/**
 * Scripts only from the player site itself (the inline embed JSON is data, not script); media,
 * playlists and the poster come from the CDN, whose origin the page does not know: any origin,
 * and blob: for MSE and hls.js's worker.
 */
export function contentSecurityPolicy(styleHash: string, allowedDomains: string[] | null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src ${styleHash}`,
    'img-src * data: blob:',
    'media-src * blob:',
    'connect-src *',
    'worker-src blob:',
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors(allowedDomains)}`,
  ].join('; ');
}

export interface PlayerRoutesOptions {
  source: EmbedSource;
  assets?: PlayerAssets;
  /** The publish page is served when WHIP is. */
  whipUrl?: string;
}

/**
 * The hosted player: `GET /player/:id` (nginx serves it at `{player_url}/<id>`) and its assets
 * at `GET /player/assets/:name` (`{player_url}/assets/<name>`). HTML pages for every outcome,
 * never the API's JSON errors, except for an unknown asset. Loads the assets unless given.
 */
export const playerRoutes: FastifyPluginAsync<PlayerRoutesOptions> = async (app, { source, assets, whipUrl }) => {
  const loaded = assets ?? (await loadPlayerAssets());
  const pages = await createPlayerPages(loaded.urls);
  const schema = { hide: true };

  const sendHtml = (
    reply: FastifyReply,
    status: number,
    html: string,
    cacheControl: string,
    allowedDomains: string[] | null = null,
  ) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', cacheControl)
      .header('content-security-policy', contentSecurityPolicy(pages.styleHash, allowedDomains))
      .header('x-content-type-options', 'nosniff')
      .send(html);

  // No params schemas: a page never answers with the API's JSON 400, so the types are declared, not validated.
  app.get<{ Params: { id: string } }>('/player/:id', { schema }, async (request, reply) => {
    const { id } = request.params;
    if (!STREAM_ID.test(id)) return sendHtml(reply, 404, pages.notFound(), MICRO);
    try {
      const { embed, allowedDomains, latencyMode } = await source.embed(id, request.ip);
      return sendHtml(reply, 200, pages.page(embed, latencyMode ?? 'standard'), MICRO, allowedDomains);
    } catch (err) {
      const failure = failurePage(err, pages);
      if (failure.status >= 500) request.log.error({ err, request_id: request.id }, 'player page: embed read failed');
      if (failure.retryAfter !== undefined) reply.header('retry-after', String(failure.retryAfter));
      return sendHtml(reply, failure.status, failure.html, failure.cacheControl);
    }
  });

  // The channel page: the same player, told to follow the channel (`player.js`'s channel mode).
  const channelSource = source.channel?.bind(source);
  if (channelSource) {
    app.get<{ Params: { id: string } }>('/player/c/:id', { schema }, async (request, reply) => {
      const { id } = request.params;
      if (!CHANNEL_ID.test(id)) return sendHtml(reply, 404, pages.notFound(), MICRO);
      try {
        const { channel, allowedDomains, latencyMode } = await channelSource(id, request.ip);
        return sendHtml(reply, 200, pages.channel(channel, latencyMode ?? 'standard'), MICRO, allowedDomains);
      } catch (err) {
        const failure = failurePage(err, pages);
        if (failure.status >= 500)
          request.log.error({ err, request_id: request.id }, 'channel page: embed read failed');
        if (failure.retryAfter !== undefined) reply.header('retry-after', String(failure.retryAfter));
        return sendHtml(reply, failure.status, failure.html, failure.cacheControl);
      }
    });
  }

  // The publish page (`{player_url}/publish/<id>#key=...`): the same for every stream and key, so
  // it reads nothing; the key stays in the fragment. Camera use needs a top-level page: never framed.
  if (whipUrl) {
    app.get<{ Params: { id: string } }>('/player/publish/:id', { schema }, async (request, reply) => {
      const { id } = request.params;
      if (!STREAM_ID.test(id)) return sendHtml(reply, 404, pages.notFound(), MICRO);
      return reply
        .code(200)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', contentSecurityPolicy(pages.publishStyleHash, []))
        .header('x-content-type-options', 'nosniff')
        .header('referrer-policy', 'no-referrer')
        .send(pages.publish(id, whipUrl));
    });
  }

  // The site's root and anything deeper name no stream: the same HTML 404.
  const notFound = async (_request: unknown, reply: FastifyReply) => sendHtml(reply, 404, pages.notFound(), MICRO);
  app.get('/player', { schema }, notFound);
  app.get('/player/*', { schema }, notFound);

  registerAssetRoute(app, '/player/assets', loaded, 'No such player asset.');
};

interface FailurePage {
  status: number;
  html: string;
  cacheControl: string;
  retryAfter?: number;
}

/** 404 and 429 pages for the embed read's refusals; anything else is a 503 that retries itself. */
function failurePage(err: unknown, pages: PlayerPages): FailurePage {
  if (err instanceof ApiError && err.code === 'not_found')
    return { status: 404, html: pages.notFound(), cacheControl: MICRO };
  if (err instanceof ApiError && err.status === 429) {
    const seconds = err.retryAfterSeconds ?? 60;
    // Per viewer address: never cached for other viewers.
    return { status: 429, html: pages.rateLimited(seconds), cacheControl: 'no-store', retryAfter: seconds };
  }
  return { status: 503, html: pages.unavailable(), cacheControl: 'no-store', retryAfter: 10 };
}
