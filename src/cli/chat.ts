import { Args, Flags } from '@oclif/core';
import type { Column } from './table.js';

/** The API's Ban. */
export interface BanDoc {
  object: 'ban';
  id: string;
  stream_id: string | null;
  channel_id?: string | null;
  viewer_id: string;
  message_id: string | null;
  created_by?: string;
  created_at: string;
  [key: string]: unknown;
}

/** The API's Moderator. */
export interface ModeratorDoc {
  object: 'moderator';
  id: string;
  stream_id: string | null;
  channel_id?: string | null;
  viewer_id: string;
  name: string | null;
  source: 'invitation' | 'token';
  active_until: string;
  created_at: string;
  link: string | null;
  [key: string]: unknown;
}

/** An item of the owner's chat listing: a ChatMessage with `viewer_id` and `hidden`. */
export interface ChatMessageDoc {
  object: 'chat_message';
  id: string;
  stream_id: string;
  text: string;
  author: { name: string; verified: boolean; role: 'viewer' | 'moderator' };
  created_at: string;
  deleted_at: string | null;
  deleted_by: string | null;
  viewer_id: string;
  hidden: boolean;
  [key: string]: unknown;
}

export interface ListDoc<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

export { streamIdArg as streamArg } from './streams.js';

/** Page flags of the chat listings (the API's `limit` and `starting_after`). */
export const pageFlags = (what: string) => ({
  limit: Flags.integer({ summary: 'Page size (1-100, default 20).', min: 1, max: 100 }),
  'starting-after': Flags.string({ summary: `Next page: the id of the last ${what} of the previous one.` }),
});

/** The API path of a stream's chat resource. */
export const chatPath = (streamId: string, ...rest: string[]): string =>
  ['v1/streams', encodeURIComponent(streamId), 'chat', ...rest.map(encodeURIComponent)].join('/');

export const channelArg = Args.string({ description: 'Channel id (chn_...).', required: true });

/** The API path of a channel's chat resource (its moderators and bans cover every stream of it). */
export const channelChatPath = (channelId: string, ...rest: string[]): string =>
  ['v1/channels', encodeURIComponent(channelId), 'chat', ...rest.map(encodeURIComponent)].join('/');

/** Whom `bans create` bans: a viewer id, or the author of a message (`message` says which messages). */
export const banTargetFlags = (message: string) => ({
  'viewer-id': Flags.string({
    summary: "The viewer's id (their viewer token `sub`).",
    exactlyOne: ['viewer-id', 'message-id'],
  }),
  'message-id': Flags.string({
    summary: `Ban the author of this chat message (${message}).`,
    exactlyOne: ['viewer-id', 'message-id'],
  }),
});

/** The ban's request body from those flags. */
export const banBody = (f: { 'viewer-id'?: string | undefined; 'message-id'?: string | undefined }) =>
  f['viewer-id'] !== undefined ? { viewer_id: f['viewer-id'] } : { message_id: f['message-id'] };

export const BAN_COLUMNS: Column<BanDoc>[] = [
  { header: 'id', get: (b) => b.id },
  { header: 'viewer_id', get: (b) => b.viewer_id },
  { header: 'message_id', get: (b) => b.message_id },
  { header: 'created_by', get: (b) => b.created_by },
  { header: 'created_at', get: (b) => b.created_at },
];

export const MODERATOR_KEYS = ['id', 'name', 'viewer_id', 'source', 'active_until', 'created_at', 'link'];

export const MODERATOR_COLUMNS: Column<ModeratorDoc>[] = [
  { header: 'id', get: (m) => m.id },
  { header: 'name', get: (m) => m.name },
  { header: 'viewer_id', get: (m) => m.viewer_id },
  { header: 'source', get: (m) => m.source },
  { header: 'active_until', get: (m) => m.active_until },
];

/** Deleted (by whom) and hidden (a banned viewer's post only they see) in one column. */
const state = (m: ChatMessageDoc): string | null =>
  [m.deleted_at ? `deleted by ${m.deleted_by ?? 'owner'}` : '', m.hidden ? 'hidden' : ''].filter(Boolean).join(', ') ||
  null;

export const MESSAGE_COLUMNS: Column<ChatMessageDoc>[] = [
  { header: 'id', get: (m) => m.id },
  { header: 'created_at', get: (m) => m.created_at },
  { header: 'viewer_id', get: (m) => m.viewer_id },
  { header: 'name', get: (m) => m.author.name },
  { header: 'state', get: state },
  { header: 'text', get: (m) => m.text.replace(/\s+/g, ' ') },
];
