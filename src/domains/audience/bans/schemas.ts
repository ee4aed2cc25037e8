import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../../platform/http/schema-helpers.js';
import { CHANNEL_ID, STREAM_ID } from '../../streams/model.js';

export const BAN_ID = /^ban_[a-z0-9]{20}$/;

/** The client's own viewer id (a viewer token's `sub`). */
export const ViewerId = Type.String({
  minLength: 1,
  maxLength: 64,
  description: "The client's own viewer id (a viewer token's `sub`), 1-64 characters",
});

export const Ban = Type.Object(
  {
    object: Type.Literal('ban'),
    id: Type.String({ pattern: BAN_ID.source, examples: ['ban_5z8f3k2m9q7x1c4v6b0n'] }),
    stream_id: Nullable(
      Type.String({
        pattern: STREAM_ID.source,
        examples: ['str_8f3k2m9q7x1c4v6b0n5z'],
        description: 'The stream it covers; null for a ban of a channel',
      }),
    ),
    channel_id: Nullable(
      Type.String({
        pattern: CHANNEL_ID.source,
        examples: [null],
        description: "The channel whose every stream it covers, present and future; null for a stream's ban",
      }),
    ),
    viewer_id: ViewerId,
    message_id: Nullable(
      Type.String({ description: 'The chat message the ban was made from; null when made by viewer id' }),
    ),
    created_by: Type.String({ description: '`owner` (the API) or the id of the moderator (`mod_...`) who made it' }),
    created_at: Timestamp,
  },
  {
    $id: 'Ban',
    additionalProperties: false,
    description:
      'A ban follows the person (the token `sub`), not the browser: on its stream, or on every stream of its channel',
  },
);
export type Ban = Static<typeof Ban>;

export const BanList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref(Ban)), has_more: Type.Boolean() },
  { $id: 'BanList' },
);
export type BanList = Static<typeof BanList>;

export const CreateBanBody = Type.Object(
  {
    viewer_id: Type.Optional(ViewerId),
    message_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          'Ban the author of this chat message (`msg_...`; on a channel, a message of any of its streams); an anonymous author is also banned by the network the message came from',
      }),
    ),
  },
  { additionalProperties: false, description: 'Exactly one of `viewer_id` and `message_id`' },
);
export type CreateBanBody = Static<typeof CreateBanBody>;

export const ListBansQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(
      Type.String({ pattern: BAN_ID.source, description: 'The id of the last ban of the previous page' }),
    ),
  },
  { additionalProperties: false },
);
export type ListBansQuery = Static<typeof ListBansQuery>;

export const BanParams = Type.Object(
  {
    id: Type.String({ description: 'Stream id (`str_...`)' }),
    ban_id: Type.String({ description: 'Ban id (`ban_...`)' }),
  },
  { additionalProperties: false },
);

export const ChannelBanParams = Type.Object(
  {
    id: Type.String({ description: 'Channel id (`chn_...`)' }),
    ban_id: Type.String({ description: 'Ban id (`ban_...`)' }),
  },
  { additionalProperties: false },
);

export const BAN_SCHEMAS = [Ban, BanList];
