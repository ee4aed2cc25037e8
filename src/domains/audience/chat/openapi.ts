import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The chat operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Chat'] },
  {
    listEmbedChatMessages: {
      summary: 'Chat history',
      description:
        'The newest messages, oldest first, as every viewer sees them (no shadowed or deleted messages). Page ' +
        'back with `before` = the first id of the page. Served cached for one second at ' +
        '`{player_url}/api/embed/{id}/chat/messages`. Readable by anyone with the stream id, members-only ' +
        'streams included.',
    },
    readChatFeed: {
      summary: 'Chat feed (server-sent events)',
      description: [
        "A `text/event-stream` of the stream's chat. A fresh connection gets `reset`, the newest 50 messages " +
          'as `message` events, then `settings`; a reconnection with `Last-Event-ID` (or `after`) gets exactly ' +
          'the events it missed (`reset` and a fresh start when they are too old). Events:',
        '- `message` (id, data: a chat message);',
        '- `delete` (id, data `{object: "chat_deletion", message_ids, deleted_by}`): remove these messages;',
        '- `settings` (id, data: `enabled` (posting open), `anonymous_posting`, `slow_mode_seconds`, ' +
          '`reactions` with `emojis` and the sampling `rate`);',
        '- `reactions` (no id, data `{object: "reactions", counts, rate}`): the last second\'s reactions, ' +
          'already scaled up by the sampling rate; add up those of several nodes;',
        '- a `: ping` comment every 15 seconds.',
        'Send `t` (a session token) or `c` (an anonymous client id) so a viewer sees their own posts when ' +
          'they are shadow-banned. Also at `{player_url}/api/embed/{id}/chat/feed`. `503 chat_busy` when the ' +
          'node holds as many readers as it can; `429 rate_limited` (with `Retry-After`) when it holds ' +
          "`chat.max_readers_per_address` (250) feeds from the caller's address (an IPv4 address or an IPv6 " +
          '/64); a feed that closes frees its place.',
      ].join('\n'),
    },
    postChatMessage: {
      summary: 'Post a chat message',
      description:
        "With `session_token` (a viewer session of this stream) the token's `name` is used and the message is " +
        '`verified`; without one the viewer posts with `nickname` and `client_id` (anonymous), which ' +
        'members-only streams and `chat.anonymous_posting: false` refuse with `401 viewer_token_required`. A ' +
        'viewer may post 5 messages per 10 seconds (`429 chat_rate_limited`) and, in slow mode, one per ' +
        '`slow_mode_seconds` (`429 chat_slow_mode`; moderators are exempt); both carry `Retry-After`. A ' +
        "banned viewer's post is answered `201` like any other and shown to nobody but them (a shadow ban). " +
        '`503 chat_busy` when the node sheds load.',
    },
    sendChatReaction: {
      summary: 'Send a reaction',
      description:
        "One of the `reactions.emojis` of the feed's `settings`. Players send only while their page-load `u` " +
        'is below `reactions.rate`; each reaction counts for 1/rate, and the feed announces the counts once a ' +
        "second. A viewer may send 20 per 10 seconds (`429 chat_rate_limited`); past a stream's budget per " +
        'node (100 a second) reactions are accepted and not counted.',
    },
    moderatorDeleteChatMessage: {
      summary: 'Delete a message (moderator)',
      description:
        'A moderator session (`session_token`) deletes a message: it goes from every feed (a `delete` event) ' +
        'and from the history. `200` with the deleted message, also when it was already deleted.',
    },
    moderatorBanViewer: {
      summary: 'Ban a viewer (moderator)',
      description:
        'A moderator session bans the author of `message_id`, or `viewer_id`: a shadow ban, like ' +
        '`POST /v1/streams/{id}/chat/bans`, with `created_by` = the moderator id. `201` new, `200` already banned.',
    },
    moderatorSetSlowMode: {
      summary: 'Set slow mode (moderator)',
      description:
        'A moderator session sets `chat.slow_mode_seconds` (0 turns it off); every feed gets a `settings` ' +
        "event. Answers the chat settings as the feed's `settings` events carry them.",
    },
    listChatMessages: {
      security: KEYED,
      summary: 'List chat messages (owner)',
      description:
        "Every message of the stream, newest first, with the author's `viewer_id` and whether it is `hidden` " +
        '(shadowed by a ban) or deleted. Page with `starting_after` = the id of the last message of the ' +
        'previous page.',
    },
    deleteChatMessage: {
      security: KEYED,
      summary: 'Delete a chat message (owner)',
      description:
        'The message goes from every feed and from the history (`deleted_by: "owner"`). `200` with the ' +
        'deleted message, also when it was already deleted.',
    },
  },
);
