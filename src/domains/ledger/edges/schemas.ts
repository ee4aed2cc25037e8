import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../../platform/http/schema-helpers.js';
import { ACME_TOKEN } from './challenges.js';

/** The edge's routes on the origin's API (docs/decisions.md, "Edge tier"): not part of the public interface. */

const StreamId = Type.String({ pattern: '^str_[a-z0-9]{20}$' });
const Count = Type.Integer({ minimum: 0 });
/** `<dev>:<inode>` of an edge's log file. */
const FileId = Nullable(Type.String({ minLength: 1, maxLength: 100 }));

export const JoinBody = Type.Object(
  {
    // Any string: a wrong token is refused as one (401), whatever it looks like.
    token: Type.String({ minLength: 1, maxLength: 200 }),
    /** Where the edge says it is reached (shown to the operator). */
    address: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 253 }))),
  },
  { additionalProperties: false },
);

/** An ACME http-01 token an edge is solving (docs/decisions.md, "Edges over https"). */
export const ChallengeParams = Type.Object({ token: Type.String({ pattern: ACME_TOKEN }) });
export const ChallengeBody = Type.Object(
  { key_authorization: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,600}$' }) },
  { additionalProperties: false },
);

export const HeartbeatBody = Type.Object(
  {
    address: Nullable(Type.String({ minLength: 1, maxLength: 253 })),
    nginx_up: Type.Boolean(),
  },
  { additionalProperties: false },
);

const Position = Type.Object(
  { file_id: FileId, byte_offset: Count, counted_until: Nullable(Timestamp) },
  { additionalProperties: false },
);

export const LogBody = Type.Object(
  {
    from: Type.Object({ file_id: FileId, byte_offset: Count }, { additionalProperties: false }),
    to: Position,
    delivery: Type.Array(
      Type.Object({ stream_id: StreamId, minute: Timestamp, bytes: Count }, { additionalProperties: false }),
      { maxItems: 100_000 },
    ),
    viewers: Type.Array(
      Type.Object(
        {
          stream_id: StreamId,
          minute: Timestamp,
          viewer: Type.String({ minLength: 1, maxLength: 64 }),
          country: Type.String({ pattern: '^[A-Z0-9]{2}$' }),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100_000 },
    ),
    served: Type.Object({ requests: Count, hits: Count, misses: Count, bytes: Count }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type LogBody = Static<typeof LogBody>;

/** An edge's log batch may be larger than the API's usual body limit (a minute of many viewers). */
export const LOG_BODY_LIMIT = 8 * 1024 * 1024;
