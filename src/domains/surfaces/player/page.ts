import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { shippedFile, templateEnvironment } from '../../../core/resources.js';
import type { ChannelEmbed, Embed } from '../embed/schemas.js';
import { LATENCY, LATENCY_MODES, type LatencyMode } from '../../streams/model.js';
import type { AssetUrls } from './assets.js';

/**
 * The root element's `data-state`; player.js keeps it current, the page starts it from the embed.
 * Only player.js sets the viewer-session refusals (`refused`, `removed`, `access-ended`): the
 * token is in the address fragment, which the server never sees.
 */
export type PlayerState =
  | 'waiting'
  | 'loading'
  | 'playing'
  | 'ended'
  | 'unavailable'
  | 'closed'
  | 'members'
  | 'refused'
  | 'removed'
  | 'access-ended'
  | 'error';

export interface PlayerPages {
  /**
   * `latencyMode` tunes the player (`data-latency`, and the mode's hls.js targets as `data-tuning`):
   * the embed read does not carry it.
   */
  page(embed: Embed, latencyMode: LatencyMode): string;
  /** A channel's page: its stream's player (as `page`), or a wait for its first stream. */
  channel(channel: ChannelEmbed, latencyMode: LatencyMode): string;
  notFound(): string;
  rateLimited(retryAfterSeconds: number): string;
  unavailable(): string;
  /** `'sha256-...'` of the inline style, for the CSP. */
  styleHash: string;
  /** The publish page of a stream: WHIP to `whipUrl` (the address of `whip_url` without id and key). */
  publish(streamId: string, whipUrl: string): string;
  publishStyleHash: string;
}

export function initialState(embed: Embed): PlayerState {
  switch (embed.status) {
    case 'pending':
      return embed.access === 'viewer_token' ? 'members' : 'waiting';
    case 'live':
      return embed.access === 'viewer_token' ? 'members' : 'loading';
    default:
      return embed.status;
  }
}

/**
 * JSON that cannot end the `<script>` element holding it: `<` (and `>`, `&`, U+2028/9 for
 * old parsers) become `\uXXXX` escapes, which JSON.parse reads back unchanged.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Every mode's hls.js targets, for a channel page: its next stream may be in the other mode. */
const TUNINGS = JSON.stringify(Object.fromEntries(LATENCY_MODES.map((m) => [m, LATENCY[m].player])));

const styleHash = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

/** The page renderer; reads the CSS once (inlined in every page: smaller than one more request). */
export async function createPlayerPages(assets: AssetUrls): Promise<PlayerPages> {
  const css = (await readFile(shippedFile('player', 'player.css'), 'utf8')).trim();
  const publishCss = (await readFile(shippedFile('player', 'publish.css'), 'utf8')).trim();
  const env = templateEnvironment('page');
  const render = (template: string, context: Record<string, unknown>) => env.render(template, { css, ...context });
  const error = (code: string, pageTitle: string, message: string, refreshSeconds: number | null = null) =>
    render('player/error.njk', { page_title: pageTitle, code, message, refresh_seconds: refreshSeconds });

  const player = (embed: Embed | null, latencyMode: LatencyMode, channel: ChannelEmbed | null) =>
    render('player/page.njk', {
      page_title: embed?.title ?? channel?.name ?? 'Live video',
      embed,
      channel,
      latency_mode: latencyMode,
      tuning: JSON.stringify(LATENCY[latencyMode].player),
      tunings: TUNINGS,
      state: embed ? initialState(embed) : 'waiting',
      assets,
      embed_json: scriptSafeJson(channel ?? embed),
    });
  return {
    page: (embed, latencyMode) => player(embed, latencyMode, null),
    channel: (channel, latencyMode) => player(channel.stream, latencyMode, channel),
    notFound: () => error('not_found', 'Stream not found', 'There is no stream at this address'),
    // Reloads by itself once the limit allows (no script needed; the CSP allows meta refresh).
    rateLimited: (seconds) =>
      error(
        'rate_limited',
        'Too many requests',
        'Too many requests: this page will retry shortly',
        Math.max(1, Math.ceil(seconds)),
      ),
    unavailable: () =>
      error('unavailable', 'Player unavailable', 'The player cannot be shown right now; it will retry shortly', 10),
    styleHash: styleHash(css),
    publish: (streamId, whipUrl) =>
      env.render('player/publish.njk', {
        css: publishCss,
        page_title: 'Go live',
        stream_id: streamId,
        whip_url: whipUrl,
        assets,
      }),
    publishStyleHash: styleHash(publishCss),
  };
}
