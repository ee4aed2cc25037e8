import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
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
import { ops } from './openapi.js';

const chatRequest = (request: FastifyRequest): ChatRequest => ({
  streamId: (request.params as { id: string }).id,
  address: request.ip,
  origin: request.headers.origin,
});

/**
 * The public chat endpoints, mounted in the /v1/embed/ scope (its CORS: any origin, no
 * credentials; `player.allowed_domains` narrows chat to the owner's sites).
 */
export const chatPublicRoutes: FastifyPluginAsyncTypebox<{ chat: ChatService }> = async (api, { chat }) => {
  api.get(
    '/:id/chat/messages',
    {
      schema: {
        ...ops.listEmbedChatMessages,
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
        ...ops.readChatFeed,
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

  /** What a viewer's post or reaction can be refused for, before the limits of each. */
  const writeErrors = [
    'invalid_request',
    'invalid_viewer_token',
    'viewer_token_required',
    'chat_disabled',
    'origin_not_allowed',
    'not_found',
    'stream_ended',
  ] as const;

  api.post(
    '/:id/chat/messages',
    {
      schema: {
        ...ops.postChatMessage,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: PostMessageBody,
        response: {
          201: Type.Ref(ChatMessage),
          ...errorResponses(...writeErrors, 'chat_slow_mode', 'chat_rate_limited', 'rate_limited', 'chat_busy'),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await chat.post(chatRequest(request), request.body)),
  );

  api.post(
    '/:id/chat/reactions',
    {
      schema: {
        ...ops.sendChatReaction,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: ReactionBody,
        response: {
          204: Type.Null({ description: 'Counted (or dropped: over budget, banned viewer)' }),
          ...errorResponses(...writeErrors, 'chat_rate_limited', 'rate_limited'),
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
        ...ops.moderatorDeleteChatMessage,
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
        ...ops.moderatorBanViewer,
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
        ...ops.moderatorSetSlowMode,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: ModSlowModeBody,
        response: { 200: Type.Ref(EmbedChat), ...errorResponses(...modErrors) },
      },
    },
    async (request) => chat.modSlowMode(chatRequest(request), request.body.session_token, request.body.seconds),
  );
};

/** The owner's chat endpoints (keyed). */
export const chatOwnerRoutes: FastifyPluginAsyncTypebox<{ chat: ChatService }> = async (api, { chat }) => {
  api.get(
    '/v1/streams/:id/chat/messages',
    {
      schema: {
        ...ops.listChatMessages,
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
      schema: {
        ...ops.deleteChatMessage,
        params: MessageParams,
        querystring: NoQuery,
        response: { 200: Type.Ref(ChatMessage), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => chat.ownerDelete(request.account, request.params.id, request.params.message_id),
  );
};
