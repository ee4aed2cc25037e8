import type { PublicUrls } from '../../../config/config.js';
import type { ChannelRead } from './queries.js';
import type { Channel } from './schemas.js';

/** The channel's page on the hosted player, beside the streams' `embed_url` (`{player_url}/<stream_id>`). */
export const channelPageUrl = (urls: Pick<PublicUrls, 'player_url'>, id: string): string =>
  `${urls.player_url}/c/${id}`;

export function presentChannel(row: ChannelRead, urls: Pick<PublicUrls, 'player_url'>): Channel {
  return {
    object: 'channel',
    id: row.id,
    name: row.name,
    metadata: row.metadata,
    player: row.player,
    chat: row.chat,
    page_url: channelPageUrl(urls, row.id),
    live_stream_id: row.live_stream_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
