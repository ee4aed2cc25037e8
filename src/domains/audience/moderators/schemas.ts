import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';
import { ViewerId } from '../bans/schemas.js';
import { CHANNEL_ID, STREAM_ID } from '../../streams/model.js';

export const MODERATOR_ID = /^mod_[a-z0-9]{20}$/;
export const ModeratorId = Type.String({ pattern: MODERATOR_ID.source, examples: ['mod_4k2m9q7x1c4v6b0n5z8f'] });

/** Invitations default to this many days (spec: `active_days` 1-30, default 30). */
export const DEFAULT_ACTIVE_DAYS = 30;

export const Moderator = Type.Object(
  {
    object: Type.Literal('moderator'),
    id: ModeratorId,
    stream_id: Nullable(
      Type.String({
        pattern: STREAM_ID.source,
        examples: ['str_8f3k2m9q7x1c4v6b0n5z'],
        description: 'The stream it moderates; null for a moderator of a channel',
      }),
    ),
    channel_id: Nullable(
      Type.String({
        pattern: CHANNEL_ID.source,
        examples: [null],
        description: "The channel whose every stream it moderates, present and future; null for a stream's moderator",
      }),
    ),
    viewer_id: Type.String({
      description:
        "The viewer who moderates: a viewer token's `sub`, or for a link-only moderator its own `mod_...` id",
    }),
    name: Nullable(
      Type.String({
        description:
          "Shown on the moderator's chat posts: the invitation's name (a token moderator: its token's `name`, null without one)",
      }),
    ),
    source: StringEnum(['invitation', 'token'] as const, {
      description: '`invitation`: invited by the owner; `token`: signed in with a moderator-role viewer token',
    }),
    active_until: Timestamp,
    created_at: Timestamp,
    link: Nullable(
      Type.String({
        description:
          "Invitations of a stream only: `{player_url}/{stream_id}#mod=<moderator_token>`. Opening it makes the browser a moderator of the stream's chat until `active_until`; the same link on every read, refused once the moderator is removed or expired. Null for token moderators and a channel's moderators (they sign in with their viewer tokens)",
      }),
    ),
  },
  {
    $id: 'Moderator',
    additionalProperties: false,
    description:
      "A moderator of a stream's chat, or of every stream of a channel: deletes messages, bans viewers and sets slow mode",
  },
);
export type Moderator = Static<typeof Moderator>;

export const ModeratorList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref(Moderator)), has_more: Type.Boolean() },
  { $id: 'ModeratorList' },
);
export type ModeratorList = Static<typeof ModeratorList>;

export const InviteModeratorBody = Type.Object(
  {
    viewer_id: Type.Optional(ViewerId),
    name: Type.String({
      minLength: 1,
      maxLength: 40,
      pattern: '^(?=.*\\S)[^\\u0000-\\u001f\\u007f]+$',
      description: "1-40 characters, shown on the moderator's chat posts",
    }),
    active_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 30,
        default: DEFAULT_ACTIVE_DAYS,
        description: 'The moderator is active for this many days from now (1-30, default 30)',
      }),
    ),
  },
  {
    additionalProperties: false,
    description:
      "With `viewer_id` (a viewer token's `sub`), that person's viewer tokens open moderator sessions too, and inviting them again updates the same moderator. Without it, a link-only moderator whose viewer id is its own `mod_...` id",
    examples: [{ viewer_id: 'teacher-17', name: 'Ms Rivera', active_days: 7 }],
  },
);
export type InviteModeratorBody = Static<typeof InviteModeratorBody>;

export const ListModeratorsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(
      Type.String({ pattern: MODERATOR_ID.source, description: 'The id of the last moderator of the previous page' }),
    ),
  },
  { additionalProperties: false },
);
export type ListModeratorsQuery = Static<typeof ListModeratorsQuery>;

export const ModeratorParams = Type.Object(
  {
    id: Type.String({ description: 'Stream id (`str_...`)' }),
    mod_id: Type.String({ description: 'Moderator id (`mod_...`)' }),
  },
  { additionalProperties: false },
);

export const ChannelModeratorParams = Type.Object(
  {
    id: Type.String({ description: 'Channel id (`chn_...`)' }),
    mod_id: Type.String({ description: 'Moderator id (`mod_...`)' }),
  },
  { additionalProperties: false },
);

export const ModeratorSessionBody = Type.Object(
  {
    moderator_token: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'What follows `#mod=` in a moderator link',
    }),
  },
  { additionalProperties: false },
);
export type ModeratorSessionBody = Static<typeof ModeratorSessionBody>;

export const MODERATOR_SCHEMAS = [Moderator, ModeratorList];
