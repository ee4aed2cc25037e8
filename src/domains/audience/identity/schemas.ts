import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';
import { ViewerId } from '../bans/schemas.js';
import { StreamId } from '../../streams/model.js';
import { VIEWER_ROLES } from './viewer-token.js';

export const SessionId = Type.String({ pattern: '^vsn_[a-z0-9]{20}$', examples: ['vsn_6b0n5z8f3k2m9q7x1c4v'] });

export const PersonalPlayback = Type.Object(
  {
    url: Type.String({
      description:
        'A signed HLS address for this viewer session only; renew it with `POST /v1/embed/{id}/playback` before `expires_at`',
    }),
    expires_at: Timestamp,
  },
  { additionalProperties: false },
);

const Beacon = Type.Object(
  {
    rate: Type.Number({ minimum: 0, maximum: 1 }),
    interval_seconds: Type.Integer({ minimum: 1 }),
  },
  {
    description:
      'With a session, report at this rate and interval (beats with `t`): the attendance reports. Null once the stream is over',
  },
);

export const ViewerSession = Type.Object(
  {
    object: Type.Literal('viewer_session'),
    id: SessionId,
    stream_id: StreamId,
    viewer: Type.Object(
      {
        id: ViewerId,
        name: Nullable(Type.String({ description: "The token's `name` (verified); null without one" })),
        role: StringEnum(VIEWER_ROLES),
      },
      { additionalProperties: false },
    ),
    moderator: Nullable(
      Type.Object(
        {
          object: Type.Literal('moderator'),
          id: Type.String({ pattern: '^mod_[a-z0-9]{20}$', examples: ['mod_4k2m9q7x1c4v6b0n5z8f'] }),
          viewer_id: ViewerId,
          name: Nullable(Type.String()),
          active_until: Timestamp,
        },
        {
          additionalProperties: false,
          description:
            "The viewer's moderator record when the session moderates the chat (then `viewer.role` is `moderator`; otherwise null and `viewer`): an invitation of the owner (its link, or a viewer token whose `sub` is the invited `viewer_id`), or a moderator-role token, which makes the viewer a moderator for one day after each sign-in without shortening an invitation. A moderator the owner removed stays removed: null",
        },
      ),
    ),
    playback: Nullable(PersonalPlayback),
    session_token: Type.String({
      description: 'Send as `t` on beats and as `session_token` to `/playback`; valid until `expires_at`',
    }),
    expires_at: Timestamp,
    access_until: Timestamp,
    beacon: Nullable(Beacon),
  },
  { $id: 'ViewerSession', additionalProperties: false },
);
export type ViewerSession = Static<typeof ViewerSession>;

export const RenewedPlayback = Type.Object(
  { object: Type.Literal('playback'), url: Type.String(), expires_at: Timestamp },
  { $id: 'RenewedPlayback', additionalProperties: false },
);
export type RenewedPlayback = Static<typeof RenewedPlayback>;

export const OpenSessionBody = Type.Object(
  {
    viewer_token: Type.String({
      minLength: 1,
      maxLength: 8192,
      description: 'A JWT signed with a viewer key of the account (HS256, `kid` = the key id)',
    }),
  },
  { additionalProperties: false },
);
export type OpenSessionBody = Static<typeof OpenSessionBody>;

export const RenewBody = Type.Object(
  {
    session_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 4096,
        description: 'The session token from `POST /v1/embed/{id}/session`',
      }),
    ),
  },
  { additionalProperties: false, 'x-optional-body': true },
);
export const RenewQuery = Type.Object(
  {
    t: Type.Optional(
      Type.String({ minLength: 1, maxLength: 4096, description: 'The session token, when not sent in the body' }),
    ),
  },
  { additionalProperties: false },
);

export const IDENTITY_SCHEMAS = [ViewerSession, RenewedPlayback];
