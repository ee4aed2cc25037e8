import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../../platform/http/schema-helpers.js';
import {
  ChannelId,
  ChatSettings,
  ChatSettingsInput,
  DEFAULT_CHAT,
  DEFAULT_PLAYER,
  PlayerSettings,
  PlayerSettingsInput,
} from '../model.js';
import { Metadata, Name } from '../schemas.js';

/** Channels per account (docs/decisions.md, "Channels: the API"); counted under the account's row lock. */
export const MAX_CHANNELS = 1000;

export const Channel = Type.Object(
  {
    object: Type.Literal('channel'),
    id: ChannelId,
    name: Name,
    metadata: Metadata,
    player: Type.Ref(PlayerSettings),
    chat: Type.Ref(ChatSettings),
    page_url: Type.String({
      description:
        "The channel's page on the hosted player, `{player_url}/c/<channel_id>`: its live stream, else its next pending one, else its latest replay",
      examples: ['https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c'],
    }),
    live_stream_id: Nullable(
      Type.String({
        description: 'The stream of the channel that is live now; null when none is',
        examples: ['str_8f3k2m9q7x1c4v6b0n5z'],
      }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  {
    $id: 'Channel',
    additionalProperties: false,
    description:
      'A recurring show. Streams created in it (`channel_id` on stream creation) start with its `player` and `chat` settings; changing them later leaves existing streams as they are',
    examples: [
      {
        object: 'channel',
        id: 'chn_4v6b0n5z8f3k2m9q7x1c',
        name: 'Friday town hall',
        metadata: { team: 'comms' },
        player: DEFAULT_PLAYER,
        chat: { ...DEFAULT_CHAT, slow_mode_seconds: 10 },
        page_url: 'https://player.example.com/c/chn_4v6b0n5z8f3k2m9q7x1c',
        live_stream_id: 'str_8f3k2m9q7x1c4v6b0n5z',
        created_at: '2026-11-01T09:00:00.000Z',
        updated_at: '2026-11-20T16:12:44.000Z',
      },
    ],
  },
);
export type Channel = Static<typeof Channel>;

export const DeletedChannel = Type.Object(
  { ...Channel.properties, deleted: Type.Literal(true) },
  {
    $id: 'DeletedChannel',
    additionalProperties: false,
    description: 'The channel as it was, deleted; its finished streams keep existing with `channel_id` null',
  },
);
export type DeletedChannel = Static<typeof DeletedChannel>;

export const ChannelList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref(Channel)), has_more: Type.Boolean() },
  { $id: 'ChannelList' },
);
export type ChannelList = Static<typeof ChannelList>;

export const CreateChannelBody = Type.Object(
  {
    name: Type.Optional(Name),
    metadata: Type.Optional(Metadata),
    player: Type.Optional(PlayerSettingsInput),
    chat: Type.Optional(ChatSettingsInput),
  },
  {
    additionalProperties: false,
    'x-optional-body': true,
    examples: [{ name: 'Friday town hall', chat: { slow_mode_seconds: 10 }, metadata: { team: 'comms' } }],
  },
);
export type CreateChannelBody = Static<typeof CreateChannelBody>;

export const PatchChannelBody = Type.Object(
  {
    name: Type.Optional(Name),
    metadata: Type.Optional(Metadata),
    player: Type.Optional(PlayerSettingsInput),
    chat: Type.Optional(ChatSettingsInput),
  },
  // Required and not empty: a patch that changes nothing is a client mistake.
  { additionalProperties: false, minProperties: 1, examples: [{ player: { require_viewer_token: true } }] },
);
export type PatchChannelBody = Static<typeof PatchChannelBody>;

export const ListChannelsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    starting_after: Type.Optional(ChannelId),
  },
  { additionalProperties: false },
);
export type ListChannelsQuery = Static<typeof ListChannelsQuery>;

/** Any text: an id that is not a channel of the account is `404 not_found`, never a 400. */
export const ChannelParams = Type.Object(
  { id: Type.String({ description: 'Channel id (`chn_...`)' }) },
  { additionalProperties: false },
);

export const CHANNEL_SCHEMAS = [Channel, DeletedChannel, ChannelList];
