import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../core/errors.js';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import {
  OpenSessionBody,
  RenewBody,
  RenewQuery,
  RenewedPlayback,
  ViewerSession,
} from '../../audience/identity/schemas.js';
import { PublicStreamParams } from '../../streams/model.js';
import { ModeratorSessionBody } from '../../audience/moderators/schemas.js';
import { BeatQuery, ChannelEmbed, Embed } from './schemas.js';
import type { EmbedService } from './service.js';
import { ops } from './openapi.js';

/**
 * `GET /v1/embed/{id}`, the beats, viewer and moderator sessions, personal playback renewals: no
 * key, any origin, no cookies (mounted in the /v1/embed/ scope). The address is the client's as
 * nginx saw it (Fastify trusts forwarding only from loopback).
 */
export const embedRoutes: FastifyPluginAsyncTypebox<{ embed: EmbedService }> = async (api, { embed }) => {
  api.get(
    '/:id',
    {
      schema: {
        ...ops.getEmbed,
        params: PublicStreamParams,
        querystring: NoQuery,
        response: { 200: Type.Ref(Embed), ...errorResponses('invalid_request', 'not_found', 'rate_limited') },
      },
    },
    async (request, reply) => {
      const { embed: body } = await embed.read(request.params.id, request.ip);
      return reply.header('cache-control', 'public, max-age=1').send(body);
    },
  );

  api.get(
    '/channels/:id',
    {
      schema: {
        ...ops.getChannelEmbed,
        params: PublicStreamParams,
        querystring: NoQuery,
        response: { 200: Type.Ref(ChannelEmbed), ...errorResponses('invalid_request', 'not_found', 'rate_limited') },
      },
    },
    async (request, reply) => {
      const body = await embed.readChannel(request.params.id, request.ip);
      return reply.header('cache-control', 'public, max-age=1').send(body);
    },
  );

  api.post(
    '/:id/beat',
    {
      schema: {
        ...ops.sendViewerBeat,
        params: PublicStreamParams,
        querystring: BeatQuery,
        response: {
          204: Type.Null({ description: 'Counted (or the stream is over)' }),
          ...errorResponses('invalid_request', 'invalid_viewer_token', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      if (request.body !== undefined)
        throw new ApiError('invalid_request', 'A beat has no body: send `s`, `st` and `u` in the query.', {
          field: 'body',
        });
      await embed.beat(request.params.id, request.query, request.ip);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/:id/session',
    {
      schema: {
        ...ops.createViewerSession,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: OpenSessionBody,
        response: {
          200: Type.Ref(ViewerSession),
          ...errorResponses('invalid_request', 'invalid_viewer_token', 'viewer_removed', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => embed.openSession(request.params.id, request.body.viewer_token, request.ip),
  );

  api.post(
    '/:id/mod/session',
    {
      schema: {
        ...ops.createModeratorSession,
        params: PublicStreamParams,
        querystring: NoQuery,
        body: ModeratorSessionBody,
        response: {
          200: Type.Ref(ViewerSession),
          ...errorResponses('invalid_request', 'invalid_viewer_token', 'not_found', 'rate_limited'),
        },
      },
    },
    async (request) => embed.openModeratorSession(request.params.id, request.body.moderator_token, request.ip),
  );

  api.post(
    '/:id/playback',
    {
      schema: {
        ...ops.renewEmbedPlayback,
        params: PublicStreamParams,
        querystring: RenewQuery,
        body: RenewBody,
        response: {
          200: Type.Ref(RenewedPlayback),
          ...errorResponses(
            'invalid_request',
            'invalid_viewer_token',
            'viewer_removed',
            'viewer_access_ended',
            'not_found',
            'stream_ended',
            'rate_limited',
          ),
        },
      },
    },
    async (request) => {
      const token = request.body?.session_token ?? request.query.t;
      if (token === undefined)
        throw new ApiError('invalid_request', 'Send the session token: body `session_token` (or query `t`).', {
          field: 'session_token',
        });
      if (request.body?.session_token !== undefined && request.query.t !== undefined)
        throw new ApiError('invalid_request', 'Send the session token once: body `session_token` or query `t`.', {
          field: 't',
        });
      return embed.renewPlayback(request.params.id, token, request.ip);
    },
  );
};
