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
        "The stream's own moderators (its channel's are listed on the channel): invited ones and those made " +
        'by moderator-role viewer tokens, newest first; removed ones are left ' +
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
    inviteChannelChatModerator: {
      summary: 'Invite a chat moderator of a channel',
      description:
        'The viewer (`viewer_id`, required here) moderates the chat of every stream of the channel, present ' +
        'and future, until `active_until` (now + `active_days`): their viewer tokens open moderator sessions on ' +
        "any of them, and a ban they make from the player is the channel's. No link (a link opens one stream's " +
        'page): `link` is null. A moderator-role viewer token opened on a stream of a channel also makes a ' +
        'moderator of the channel (`source: token`, one day after each sign-in). `201` with a new moderator; ' +
        '`200` when one with this `viewer_id` exists on the channel: invited again, active for `active_days` from ' +
        'now, a removal undone, its name replaced.',
    },
    listChannelChatModerators: {
      summary: 'List chat moderators of a channel',
      description:
        "The channel's own moderators (a stream's are listed on the stream), newest first; removed ones are " +
        'left out, expired ones are listed. Page with `starting_after` = the id of the last moderator of the ' +
        'previous page.',
    },
    removeChannelChatModerator: {
      summary: 'Remove a chat moderator of a channel',
      description:
        "Their moderator actions on the channel's streams are refused within a few seconds " +
        "(`403 not_a_moderator`, unless a stream's own invitation makes them that stream's moderator). The " +
        'moderator is kept as removed, so later moderator-role tokens on any stream of the channel do not ' +
        'restore it; only inviting the viewer again on the channel does.',
    },
  },
);
