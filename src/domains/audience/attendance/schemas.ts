import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../../platform/http/schema-helpers.js';

export const AttendanceItem = Type.Object(
  {
    object: Type.Literal('attendance'),
    viewer_id: Type.String({
      description: "The client's own viewer id (the viewer token's `sub`)",
      examples: ['pupil-4711'],
    }),
    name: Nullable(
      Type.String({
        description: "The newest `name` the viewer's tokens carried; null when none did",
        examples: ['Ada Lovelace'],
      }),
    ),
    watch_seconds: Type.Integer({
      minimum: 0,
      description: 'Seconds the player reported playing; paused, buffering and waiting time is not counted',
    }),
    first_seen_at: Timestamp,
    last_seen_at: Timestamp,
  },
  { $id: 'AttendanceItem', additionalProperties: false },
);
export type AttendanceItem = Static<typeof AttendanceItem>;

export const AttendanceList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(Type.Ref(AttendanceItem)),
    has_more: Type.Boolean(),
    next_after: Nullable(Type.String({ description: 'Pass as `after` for the next page; null on the last page' })),
    total: Type.Integer({ minimum: 0, description: 'Viewers listed for the stream, on every page' }),
  },
  { $id: 'AttendanceList' },
);
export type AttendanceList = Static<typeof AttendanceList>;

export const AttendanceQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    // A viewer id is a token's `sub`: 1-64 characters, any but U+0000 (PostgreSQL text cannot hold it).
    after: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        pattern: '^[^\\u0000]+$',
        description: "The previous page's `next_after`: viewers after this id, in byte order",
      }),
    ),
  },
  { additionalProperties: false },
);
export type AttendanceQuery = Static<typeof AttendanceQuery>;

export const ATTENDANCE_SCHEMAS = [AttendanceItem, AttendanceList];
