import cors from '@fastify/cors';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiError } from '../../../core/errors.js';
import { routeNotFound } from '../../../platform/http/server.js';
import type { WhipService } from './service.js';

/**
 * A page on any origin may publish (the publish page, a customer's own site): the secret is in
 * the URL, never in a cookie, so no credentials are allowed. The browser must read `Location`.
 */
const WHIP_CORS = {
  origin: '*',
  methods: 'POST, DELETE, PATCH, OPTIONS',
  allowedHeaders: 'content-type, authorization, if-match',
  exposedHeaders: 'location, etag, link, x-max-resolution',
  maxAge: 86400,
  strictPreflight: false,
};

/** An SDP offer is a few kilobytes; more is not an offer. */
const MAX_OFFER_BYTES = 64 * 1024;

const Params = Type.Object({ id: Type.String({ maxLength: 200 }) }, { additionalProperties: false });
const SessionParams = Type.Object(
  { id: Type.String({ maxLength: 200 }), session: Type.String({ maxLength: 100 }) },
  { additionalProperties: false },
);
const Query = Type.Object(
  { direction: Type.Optional(Type.Literal('whip')), key: Type.Optional(Type.String({ maxLength: 200 })) },
  { additionalProperties: false },
);

/**
 * The WHIP endpoint (RFC 9725) at the path of `whip_url`: `POST /live/{id}?direction=whip&key=...`
 * (or the key as `Authorization: Bearer`) with an SDP offer → `201` with the answer and the
 * session's `Location`; `DELETE` of that address ends the session. No trickle ICE or ICE restart
 * (`PATCH` → 405): the answer holds every candidate. Outside the /v1 API description: its bodies
 * are SDP, not JSON (docs/decisions.md, "WHIP"). Mounted at `whipPath`; its scope is its own:
 * CORS with WHIP's headers, SDP bodies, and its 404s go through both.
 */
export const whipRoutes: FastifyPluginAsyncTypebox<{ whip: WhipService; whipBase: string }> = async (
  api,
  { whip, whipBase },
) => {
  await api.register(cors, WHIP_CORS);
  api.setNotFoundHandler(routeNotFound);
  // Trickle candidates (PATCH) are read only to be answered 405.
  api.addContentTypeParser(
    ['application/sdp', 'application/trickle-ice-sdpfrag'],
    { parseAs: 'string', bodyLimit: MAX_OFFER_BYTES },
    (_req, body, done) => done(null, body),
  );

  api.post('/:id', { schema: { hide: true, params: Params, querystring: Query } }, async (request, reply) => {
    if (!/^application\/sdp\b/i.test(request.headers['content-type'] ?? '') || typeof request.body !== 'string') {
      throw new ApiError('unsupported_media_type', 'A WHIP offer is sent as `Content-Type: application/sdp`.');
    }
    const bearer = /^Bearer (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const { id } = request.params;
    const { answer, sessionId, maxResolution } = await whip.publish(id, request.query.key ?? bearer, request.body);
    return (
      reply
        .code(201)
        .header('content-type', 'application/sdp')
        .header('location', `${whipBase}/${id}/sessions/${sessionId}`)
        // The stream's declared size (short side): a browser scales its video to fit, or the stream ends limit_resolution.
        .header('x-max-resolution', String(maxResolution))
        .send(answer)
    );
  });

  api.delete('/:id/sessions/:session', { schema: { hide: true, params: SessionParams } }, async (request, reply) => {
    if (!(await whip.end(request.params.id, request.params.session)))
      throw new ApiError('not_found', 'No such WHIP session.');
    return reply.code(200).send('');
  });

  api.patch('/:id/sessions/:session', { schema: { hide: true, params: SessionParams } }, async (_request, reply) => {
    void reply.header('allow', 'DELETE');
    throw new ApiError(
      'method_not_allowed',
      'Trickle ICE and ICE restarts are not supported: the answer holds every candidate; publish again.',
    );
  });
};

/** Where the WHIP endpoint answers: the path of `whip_url`. */
export const whipPath = (whipBase: string): string => new URL(whipBase).pathname.replace(/\/$/, '');
