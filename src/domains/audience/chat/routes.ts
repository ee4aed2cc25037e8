import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { Ban } from '../bans/schemas.js';
import { PublicStreamParams, StreamParams } from '../../streams/model.js';
import {
  ChatMessage,
  ChatMessageList,
  EmbedChat,
  FeedQuery,
  HistoryQuery,
  MessageParams,
  ModBanBody,
  ModDeleteBody,
  ModSlowModeBody,
  OwnerChatMessageList,
  OwnerMessagesQuery,
  PostMessageBody,
  ReactionBody,
} from './schemas.js';
import type { ChatRequest, ChatService } from './service.js';
import { hijackWithHeaders } from '../../../platform/http/hijack.js';

const tags = ['Chat'];

const chatRequest = (request: FastifyRequest): ChatRequest => ({
  streamId: (request.params as { id: string }).id,
  address: request.ip,
  origin: request.headers.origin,
});

/**
 * The public chat endpoints, registered inside the /v1/embed/ scope (its CORS: any origin, no
 * credentials; `player.allowed_domains` narrows chat to the owner's sites).
 */
export function registerChatPublicRoutes(scope: FastifyInstance, chat: ChatService): void {
  const api = scope.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/:id/chat/messages',
    {
      schema: {
        operationId: 'listEmbedChatMessages',
        summary: 'Chat history',
        description:
          'The newest messages, oldest first, as every viewer sees them (no shadowed or deleted messages). Page back with `before` = the first id of the page. Served cached for one second at `{player_url}/api/embed/{id}/chat/messages`. Readable by anyone with the stream id, members-only streams included.',
        tags,
        params: PublicStreamParams,
        querystring: HistoryQuery,
        response: {
          200: Type.Ref(ChatMessageList),
          ...errorResponses('invalid_request', 'origin_not_allowed', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const list = await chat.history(chatRequest(request), request.query);
      return reply.header('cache-control', 'public, max-age=1').send(list);
    },
  );

  api.get(
    '/:id/chat/feed',
    {
      schema: {
        operationId: 'readChatFeed',
        summary: 'Chat feed (server-sent events)',
        description: [
          "A `text/event-stream` of the stream's chat. A fresh connection gets `reset`, the newest 50 messages as `message` events, then `settings`; a reconnection with `Last-Event-ID` (or `after`) gets exactly the events it missed (`reset` and a fresh start when they are too old). Events:",
          '- `message` (id, data: a chat message);',
          '- `delete` (id, data `{object: "chat_deletion", message_ids, deleted_by}`): remove these messages;',
          '- `settings` (id, data: `enabled` (posting open), `anonymous_posting`, `slow_mode_seconds`, `reactions` with `emojis` and the sampling `rate`);',
          '- `reactions` (no id, data `{object: "reactions", counts, rate}`): the last second\'s reactions, already scaled up by the sampling rate; add up those of several nodes;',
          '- a `: ping` comment every 15 seconds.',
          "Send `t` (a session token) or `c` (an anonymous client id) so a viewer sees their own posts when they are shadow-banned. Also at `{player_url}/api/embed/{id}/chat/feed`. `503 chat_busy` when the node holds as many readers as it can; `429 rate_limited` (with `Retry-After`) when it holds `chat.max_readers_per_address` (250) feeds from the caller's address (an IPv4 address or an IPv6 /64); a feed that closes frees its place.",
        ].join('\n'),
        tags,
        params: PublicStreamParams,
        querystring: FeedQuery,
        response: {
          200: {
            description: 'Server-sent events, open until the reader leaves',
            content: {
              'text/event-stream': {
                schema: Type.String({
                  examples: [
                    'retry: 2000\n\nevent: reset\ndata: {}\n\nid: 42\nevent: settings\ndata: {"enabled":true,"anonymous_posting":true,"slow_mode_seconds":0,"reactions":{"emojis":["👍","👏"],"rate":1}}\n\n: ping\n\n',
                  ],
                }),
              },
            },
          },
          ...errorResponses(
            'invalid_request',
            'invalid_viewer_token',
            'origin_not_allowed',
            'not_found',
            'rate_limited',
            'chat_busy',
          ),
        },
      },
    },
    async (request, reply) => {
      const lastEventId = request.headers['last-event-id'];
      const open = await chat.prepareFeed(
        chatRequest(request),
        request.query,
        typeof lastEventId === 'string' ? lastEventId : undefined,
      );
      const raw = hijackWithHeaders(reply);
      try {
        await open(raw);
      } catch (err) {
        // The answer has begun: the reader reconnects (`retry: 2000`) and resumes.
        request.log.debug({ err, request_id: request.id }, 'chat feed: could not start');
        raw.destroy();
      }
    },
  );

  api.post(
    '/:id/chat/messages',
    {
      schema: {
        operationId: 'postChatMessage',
        summary: 'Post a chat message',
        description:
          "With `session_token` (a viewer session of this stream) the token's `name` is used and the message is `verified`; without one the viewer posts with `nickname` and `client_id` (anonymous), which members-only streams and `chat.anonymous_posting: false` refuse with `401 viewer_token_required`. A viewer may post 5 messages per 10 seconds (`429 chat_rate_limited`) and, in slow mode, one per `slow_mode_seconds` (`429 chat_slow_mode`; moderators are exempt); both carry `Retry-After`. A banned viewer's post is answered `201` like any other and shown to nobody but them (a shadow ban). `503 chat_busy` when the node sheds load.",
        tags,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: PostMessageBody,
        response: {
          201: Type.Ref(ChatMessage),
          ...errorResponses(
            'invalid_request',
            'invalid_viewer_token',
            'viewer_token_required',
            'chat_disabled',
            'origin_not_allowed',
            'not_found',
            'stream_ended',
            'chat_slow_mode',
            'chat_rate_limited',
            'rate_limited',
            'chat_busy',
          ),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await chat.post(chatRequest(request), request.body)),
  );

  api.post(
    '/:id/chat/reactions',
    {
      schema: {
        operationId: 'sendChatReaction',
        summary: 'Send a reaction',
        description:
          "One of the `reactions.emojis` of the feed's `settings`. Players send only while their page-load `u` is below `reactions.rate`; each reaction counts for 1/rate, and the feed announces the counts once a second. A viewer may send 20 per 10 seconds (`429 chat_rate_limited`); past a stream's budget per node (100 a second) reactions are accepted and not counted.",
        tags,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: ReactionBody,
        response: {
          204: Type.Null({ description: 'Counted (or dropped: over budget, banned viewer)' }),
          ...errorResponses(
            'invalid_request',
            'invalid_viewer_token',
            'viewer_token_required',
            'chat_disabled',
            'origin_not_allowed',
            'not_found',
            'stream_ended',
            'chat_rate_limited',
            'rate_limited',
          ),
        },
      },
    },
    async (request, reply) => {
      await chat.react(chatRequest(request), request.body);
      return reply.code(204).send(null);
    },
  );

  const modErrors = [
    'invalid_request',
    'invalid_viewer_token',
    'not_a_moderator',
    'origin_not_allowed',
    'not_found',
    'rate_limited',
  ] as const;

  api.post(
    '/:id/mod/delete',
    {
      schema: {
        operationId: 'moderatorDeleteChatMessage',
        summary: 'Delete a message (moderator)',
        description:
          'A moderator session (`session_token`) deletes a message: it goes from every feed (a `delete` event) and from the history. `200` with the deleted message, also when it was already deleted.',
        tags,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: ModDeleteBody,
        response: { 200: Type.Ref(ChatMessage), ...errorResponses(...modErrors) },
      },
    },
    async (request) => chat.modDelete(chatRequest(request), request.body.session_token, request.body.message_id),
  );

  api.post(
    '/:id/mod/ban',
    {
      schema: {
        operationId: 'moderatorBanViewer',
        summary: 'Ban a viewer (moderator)',
        description:
          'A moderator session bans the author of `message_id`, or `viewer_id`: a shadow ban, like `POST /v1/streams/{id}/chat/bans`, with `created_by` = the moderator id. `201` new, `200` already banned.',
        tags,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: ModBanBody,
        response: { 200: Type.Ref(Ban), 201: Type.Ref(Ban), ...errorResponses(...modErrors) },
      },
    },
    async (request, reply) => {
      const { ban, created } = await chat.modBan(chatRequest(request), request.body);
      return reply.code(created ? 201 : 200).send(ban);
    },
  );

  api.post(
    '/:id/mod/slow-mode',
    {
      schema: {
        operationId: 'moderatorSetSlowMode',
        summary: 'Set slow mode (moderator)',
        description:
          "A moderator session sets `chat.slow_mode_seconds` (0 turns it off); every feed gets a `settings` event. Answers the chat settings as the feed's `settings` events carry them.",
        tags,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: ModSlowModeBody,
        response: { 200: Type.Ref(EmbedChat), ...errorResponses(...modErrors) },
      },
    },
    async (request) => chat.modSlowMode(chatRequest(request), request.body.session_token, request.body.seconds),
  );
}

/** The owner's chat endpoints (API key). */
export function registerChatOwnerRoutes(app: FastifyInstance, chat: ChatService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const auth = keyed(app);
  const security = [{ apiKey: [] }];

  api.get(
    '/v1/streams/:id/chat/messages',
    {
      ...auth,
      schema: {
        operationId: 'listChatMessages',
        summary: 'List chat messages (owner)',
        description:
          "Every message of the stream, newest first, with the author's `viewer_id` and whether it is `hidden` (shadowed by a ban) or deleted. Page with `starting_after` = the id of the last message of the previous page.",
        tags,
        security,
        params: StreamParams,
        querystring: OwnerMessagesQuery,
        response: {
          200: Type.Ref(OwnerChatMessageList),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request) => chat.ownerList(request.account, request.params.id, request.query),
  );

  api.delete(
    '/v1/streams/:id/chat/messages/:message_id',
    {
      ...auth,
      schema: {
        operationId: 'deleteChatMessage',
        summary: 'Delete a chat message (owner)',
        description:
          'The message goes from every feed and from the history (`deleted_by: "owner"`). `200` with the deleted message, also when it was already deleted.',
        tags,
        security,
        params: MessageParams,
        querystring: NoQuery,
        response: { 200: Type.Ref(ChatMessage), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => chat.ownerDelete(request.account, request.params.id, request.params.message_id),
  );
}
