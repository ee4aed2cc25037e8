import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The attendance operation as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Streams'], security: KEYED },
  {
    listAttendance: {
      summary: 'Attendance of a stream',
      description:
        'Viewers who came with a viewer token, ordered by `viewer_id` byte by byte; anonymous viewers are ' +
        'never listed. `watch_seconds` counts the time the player reported playing (every 30 seconds); ' +
        'paused, buffering and waiting time is not counted. Up to about a minute behind while streaming (a ' +
        'playing stretch is credited at the report after it; each node writes every 15 seconds). Page with ' +
        "`after` = the previous page's `next_after`; `total` counts every viewer of the stream.",
    },
    listChannelAttendance: {
      summary: 'Attendance of a channel',
      description:
        "The attendance of the channel's streams, one item per viewer: `watch_seconds` summed over the streams, " +
        '`first_seen_at` the earliest, `last_seen_at` the latest, `name` the newest the viewer came with. Same ' +
        "order, paging and lag as a stream's attendance; `total` counts every viewer of the channel.",
    },
  },
);
