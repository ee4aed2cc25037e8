import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The moderators operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Viewer tokens, sessions, bans, attendance'], security: KEYED },
  {
    inviteChatModerator: {
      summary: 'Invite a chat moderator',
      description:
        "The answer's `link` (`{player_url}/{stream_id}#mod=...`) makes whoever opens it a moderator of the " +
        "stream's chat until `active_until` (now + `active_days`): send it to the person privately. With " +
        "`viewer_id`, that viewer's own viewer tokens open moderator sessions too. `201` with a new " +
        'moderator; `200` when one with this `viewer_id` exists: invited again, active for `active_days` from ' +
        'now, a removal undone, its name replaced.',
    },
    listChatModerators: {
      summary: 'List chat moderators of a stream',
      description:
        'Invited ones and those made by moderator-role viewer tokens, newest first; removed ones are left ' +
        'out, expired ones are listed (invite them again to renew). Page with `starting_after` = the id of ' +
        'the last moderator of the previous page.',
    },
    removeChatModerator: {
      summary: 'Remove a chat moderator',
      description:
        'Its link is refused from now on, and the moderator actions of its open sessions within a few seconds ' +
        '(`403 not_a_moderator`). The moderator is kept as removed, so later moderator-role tokens of the ' +
        'same viewer do not restore it; only inviting the viewer again does.',
    },
  },
);
