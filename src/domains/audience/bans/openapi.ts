import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The bans operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Viewer tokens, sessions, bans, attendance'], security: KEYED },
  {
    createChatBan: {
      summary: 'Ban a viewer',
      description:
        "By `viewer_id` (the client's own viewer id, a token's `sub`) or `message_id` (the author of a chat " +
        'message; an anonymous author is banned by the client id and the network the message came from). Bans ' +
        "are shadow bans: the banned viewer's chat posts (past and future) are shown to nobody but " +
        'themselves, while their own feed shows them as sent. A ban follows the person, not the browser: a ' +
        "banned member's next renewal of the personal playback address is refused with `viewer_removed`, so " +
        'the video stops when the current address runs out (within five minutes), and a new session on a ' +
        'members-only stream is refused. `201` with the new ban; `200` with the existing one when the viewer ' +
        'is already banned.',
    },
    listChatBans: {
      summary: 'List bans of a stream',
      description:
        "Newest first: the stream's own bans (those of its channel are listed on the channel). Page with " +
        '`starting_after` = the id of the last ban of the previous page.',
    },
    deleteChatBan: {
      summary: 'Lift a ban',
      description: 'The viewer may open sessions and renew playback again at once.',
    },
    createChannelChatBan: {
      summary: 'Ban a viewer from a channel',
      description:
        'A ban of every stream of the channel, present and future: on each, the viewer is treated as banned ' +
        'there (chat posts shadowed, members-only sessions and playback renewals refused with `viewer_removed`). ' +
        'By `viewer_id`, or `message_id`: a chat message of any stream of the channel. A moderator of the ' +
        'channel banning from the player (`POST /v1/embed/{id}/mod/ban`) makes the same kind of ban. `201` ' +
        'with the new ban; `200` with the existing one when the viewer is already banned on the channel.',
    },
    listChannelChatBans: {
      summary: 'List bans of a channel',
      description:
        "Newest first: the channel's bans (a stream's own bans are listed on the stream). Page with " +
        '`starting_after` = the id of the last ban of the previous page.',
    },
    deleteChannelChatBan: {
      summary: 'Lift a ban of a channel',
      description:
        'The viewer may open sessions and renew playback again at once on every stream of the channel (unless a ' +
        "stream's own ban remains).",
    },
  },
);
