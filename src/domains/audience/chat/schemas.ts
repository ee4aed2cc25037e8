import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';
import { ViewerId } from '../bans/schemas.js';
import { StreamId } from '../../streams/model.js';

/** The reactions a viewer can send: a fixed set, so counts are a bounded map. */
export const EMOJIS = ['👍', '❤️', '😂', '😮', '👏', '🔥', '🎉', '😢'] as const;
export type Emoji = (typeof EMOJIS)[number];

export const MESSAGE_ID = /^msg_[a-z0-9]{20}$/;
export const MessageId = Type.String({
  pattern: MESSAGE_ID.source,
  description: 'A chat message id (`msg_...`)',
  examples: ['msg_9q7x1c4v6b0n5z8f3k2m'],
});
export const MAX_TEXT = 500;

const Deleter = Type.String({ description: '`owner` (the API) or the id of the moderator (`mod_...`) who deleted it' });

const messageFields = {
  object: Type.Literal('chat_message'),
  id: MessageId,
  stream_id: StreamId,
  text: Type.String({ minLength: 1, maxLength: MAX_TEXT }),
  author: Type.Object(
    {
      name: Type.String({
        description: "The viewer token's `name`, a moderator's invitation name, or the nickname the viewer chose",
      }),
      verified: Type.Boolean({
        description: 'The name comes from a viewer token or an invitation, not from the viewer',
      }),
      role: StringEnum(['viewer', 'moderator'] as const),
    },
    { additionalProperties: false },
  ),
  created_at: Timestamp,
  deleted_at: Nullable(Timestamp),
  deleted_by: Nullable(Deleter),
};

export const ChatMessage = Type.Object(messageFields, { $id: 'ChatMessage', additionalProperties: false });
export type ChatMessage = Static<typeof ChatMessage>;

export const OwnerChatMessage = Type.Object(
  {
    ...messageFields,
    viewer_id: ViewerId,
    hidden: Type.Boolean({ description: 'Shadowed: its author is banned, so only the author sees it' }),
  },
  { $id: 'OwnerChatMessage', additionalProperties: false, description: 'A chat message as its stream owner sees it' },
);
export type OwnerChatMessage = Static<typeof OwnerChatMessage>;

export const ChatMessageList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(Type.Ref(ChatMessage)),
    has_more: Type.Boolean({ description: 'Older messages exist: ask again with `before` = the first id' }),
  },
  { $id: 'ChatMessageList' },
);
export type ChatMessageList = Static<typeof ChatMessageList>;

export const OwnerChatMessageList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref(OwnerChatMessage)), has_more: Type.Boolean() },
  { $id: 'OwnerChatMessageList' },
);
export type OwnerChatMessageList = Static<typeof OwnerChatMessageList>;

/** What a player needs to know about chat: the feed's `settings` events (the embed read keeps the spec's fields only). */
export const EmbedChat = Type.Object(
  {
    enabled: Type.Boolean({
      description: 'Posting and reactions are open (the stream is pending or live, its player open, and chat on)',
    }),
    anonymous_posting: Type.Boolean({
      description: 'Viewers without a viewer token may post with a nickname (never on members-only streams)',
    }),
    slow_mode_seconds: Type.Integer({ minimum: 0 }),
    reactions: Type.Object(
      {
        emojis: Type.Array(Type.String(), { description: 'The reactions a viewer can send' }),
        rate: Type.Number({
          minimum: 0,
          maximum: 1,
          description: 'Send a reaction only while the page-load `u` is below this; counts are scaled up by it',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'EmbedChat', additionalProperties: false },
);
export type EmbedChat = Static<typeof EmbedChat>;

const ClientId = Type.String({
  pattern: '^[A-Za-z0-9_-]{8,64}$',
  description: 'Anonymous viewers: a random id the player keeps (localStorage), 8-64 of A-Z a-z 0-9 _ -',
});
const SessionToken = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'The session token of a viewer session of this stream',
});

export const PostMessageBody = Type.Object(
  {
    text: Type.String({ minLength: 1, maxLength: MAX_TEXT, description: 'Up to 500 characters; trimmed' }),
    nickname: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 40,
        description: 'Required without a session, or when the viewer token has no `name`; ignored when it has one',
      }),
    ),
    client_id: Type.Optional(ClientId),
    session_token: Type.Optional(SessionToken),
  },
  { additionalProperties: false },
);
export type PostMessageBody = Static<typeof PostMessageBody>;

export const ReactionBody = Type.Object(
  {
    emoji: Type.String({
      enum: [...EMOJIS],
      description: "One of 👍 ❤️ 😂 😮 👏 🔥 🎉 😢 (the feed's `settings.reactions.emojis`)",
    }),
    client_id: Type.Optional(ClientId),
    session_token: Type.Optional(SessionToken),
  },
  { additionalProperties: false },
);
export type ReactionBody = Static<typeof ReactionBody>;

export const HistoryQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
    before: Type.Optional(
      Type.String({ pattern: MESSAGE_ID.source, description: 'A message id (`msg_...`): only messages older than it' }),
    ),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

export const FeedQuery = Type.Object(
  {
    t: Type.Optional(SessionToken),
    c: Type.Optional(ClientId),
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: 'Resume after this event id (the `Last-Event-ID` header does the same)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type FeedQuery = Static<typeof FeedQuery>;

export const OwnerMessagesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(
      Type.String({ pattern: MESSAGE_ID.source, description: 'The id of the last message of the previous page' }),
    ),
  },
  { additionalProperties: false },
);
export type OwnerMessagesQuery = Static<typeof OwnerMessagesQuery>;

export const MessageParams = Type.Object(
  {
    id: Type.String({ description: 'Stream id (`str_...`)' }),
    message_id: Type.String({ description: 'Message id (`msg_...`)' }),
  },
  { additionalProperties: false },
);

export const ModDeleteBody = Type.Object(
  { session_token: SessionToken, message_id: Type.String({ minLength: 1, maxLength: 100 }) },
  { additionalProperties: false },
);
export type ModDeleteBody = Static<typeof ModDeleteBody>;

export const ModBanBody = Type.Object(
  {
    session_token: SessionToken,
    viewer_id: Type.Optional(ViewerId),
    message_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Ban the author of this message' }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of `viewer_id` and `message_id`' },
);
export type ModBanBody = Static<typeof ModBanBody>;

export const ModSlowModeBody = Type.Object(
  {
    session_token: SessionToken,
    seconds: Type.Integer({ minimum: 0, maximum: 3600, description: '0 turns slow mode off' }),
  },
  { additionalProperties: false },
);
export type ModSlowModeBody = Static<typeof ModSlowModeBody>;

export const CHAT_SCHEMAS = [ChatMessage, OwnerChatMessage, ChatMessageList, OwnerChatMessageList, EmbedChat];
