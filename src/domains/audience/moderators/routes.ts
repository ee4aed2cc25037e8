import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/model.js';
import { InviteModeratorBody, ListModeratorsQuery, Moderator, ModeratorList, ModeratorParams } from './schemas.js';
import type { ModeratorsService } from './service.js';

const security = [{ apiKey: [] }];
const tags = ['Viewer tokens, sessions, bans, attendance'];

export function registerModeratorRoutes(app: FastifyInstance, moderators: ModeratorsService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const auth = keyed(app);

  api.post(
    '/v1/streams/:id/chat/moderators',
    {
      ...auth,
      schema: {
        operationId: 'inviteChatModerator',
        summary: 'Invite a chat moderator',
        description:
          "The answer's `link` (`{player_url}/{stream_id}#mod=...`) makes whoever opens it a moderator of the stream's chat until `active_until` (now + `active_days`): send it to the person privately. With `viewer_id`, that viewer's own viewer tokens open moderator sessions too. `201` with a new moderator; `200` when one with this `viewer_id` exists: invited again, active for `active_days` from now, a removal undone, its name replaced.",
        tags,
        security,
        params: StreamParams,
        querystring: NoQuery,
        body: InviteModeratorBody,
        response: {
          200: Type.Ref(Moderator),
          201: Type.Ref(Moderator),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      const { moderator, created } = await moderators.invite(request.account, request.params.id, request.body);
      return reply.code(created ? 201 : 200).send(moderator);
    },
  );

  api.get(
    '/v1/streams/:id/chat/moderators',
    {
      ...auth,
      schema: {
        operationId: 'listChatModerators',
        summary: 'List chat moderators of a stream',
        description:
          'Invited ones and those made by moderator-role viewer tokens, newest first; removed ones are left out, expired ones are listed (invite them again to renew). Page with `starting_after` = the id of the last moderator of the previous page.',
        tags,
        security,
        params: StreamParams,
        querystring: ListModeratorsQuery,
        response: { 200: Type.Ref(ModeratorList), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => moderators.list(request.account, request.params.id, request.query),
  );

  api.delete(
    '/v1/streams/:id/chat/moderators/:mod_id',
    {
      ...auth,
      schema: {
        operationId: 'removeChatModerator',
        summary: 'Remove a chat moderator',
        description:
          'Its link is refused from now on, and the moderator actions of its open sessions within a few seconds (`403 not_a_moderator`). The moderator is kept as removed, so later moderator-role tokens of the same viewer do not restore it; only inviting the viewer again does.',
        tags,
        security,
        params: ModeratorParams,
        querystring: NoQuery,
        response: {
          204: Type.Null({ description: 'Removed' }),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      await moderators.remove(request.account, request.params.id, request.params.mod_id);
      return reply.code(204).send(null);
    },
  );
}
