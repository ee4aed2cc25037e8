import { Args } from '@oclif/core';
import { METADATA_EXAMPLE, parseJsonObjectFlag } from './streams.js';
import type { Column } from './table.js';

export const channelArg = Args.string({ description: 'Channel id (chn_...).', required: true });

/** The API path of a channel. */
export const channelPath = (id: string): string => `v1/channels/${encodeURIComponent(id)}`;

/** The fields of the API's Channel the CLI shows; the rest is in --json. */
export interface ChannelDoc {
  id: string;
  name: string | null;
  page_url: string;
  live_stream_id: string | null;
  metadata: Record<string, unknown> | null;
  player: Record<string, unknown>;
  chat: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  [key: string]: unknown;
}

export interface ChannelListDoc {
  object: 'list';
  data: ChannelDoc[];
  has_more: boolean;
}

export const CHANNEL_KEYS = [
  'id',
  'name',
  'page_url',
  'live_stream_id',
  'metadata',
  'player',
  'chat',
  'created_at',
  'updated_at',
];

export const CHANNEL_COLUMNS: Column<ChannelDoc>[] = [
  { header: 'id', get: (c) => c.id },
  { header: 'name', get: (c) => c.name },
  { header: 'live_stream_id', get: (c) => c.live_stream_id },
  { header: 'page_url', get: (c) => c.page_url },
];

export const PLAYER_FLAG_SUMMARY =
  'Player settings, a JSON object, e.g. \'{"require_viewer_token":true}\' (fields: show_name, require_viewer_token, enabled, allowed_domains, watch_minutes_limit, closed_at).';
export const CHAT_FLAG_SUMMARY =
  'Chat settings, a JSON object, e.g. \'{"slow_mode_seconds":10}\' (fields: enabled, anonymous_posting, slow_mode_seconds, reaction_sampling).';

/** The body fields of `svc channels create` and `update` from their flags (the JSON ones checked here, the rest by the API). */
export function channelBody(f: {
  name?: string;
  'clear-name'?: boolean;
  metadata?: string;
  player?: string;
  chat?: string;
}): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (f.name !== undefined) body.name = f.name;
  if (f['clear-name']) body.name = null;
  if (f.metadata !== undefined)
    body.metadata = parseJsonObjectFlag('metadata', f.metadata, METADATA_EXAMPLE, { nullable: true });
  if (f.player !== undefined) body.player = parseJsonObjectFlag('player', f.player, '{"enabled":false}');
  if (f.chat !== undefined) body.chat = parseJsonObjectFlag('chat', f.chat, '{"slow_mode_seconds":10}');
  return body;
}
