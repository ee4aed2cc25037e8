import { KEYED, operations } from '../../platform/http/openapi.js';

/** The streams operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Streams'], security: KEYED },
  {
    createStream: {
      summary: 'Create a stream',
      description:
        'Reserves ingest for 30 minutes and returns the addresses and the stream key (shown once). With ' +
        '`Idempotency-Key`, a retry within 24 hours returns the first response with `Idempotent-Replayed: true`. ' +
        "With `channel_id`, the stream starts with the channel's `player` and `chat` settings, the body's own fields " +
        "laid over them (`404 not_found` for a channel that is not the account's).",
    },
    listStreams: {
      summary: 'List streams',
      description:
        'Newest first. Page with `starting_after` = the id of the last stream of the previous page. ' +
        "`channel_id` lists one channel's streams.",
    },
    getStream: {
      summary: 'Get a stream',
      description: 'With `ingest`, `cost` and `viewers`. `playback_url` is re-signed on every read.',
    },
    updateStream: {
      summary: 'Update a stream',
      description:
        'Works in any status. Fields left out are unchanged; null clears; `metadata` is replaced whole; ' +
        '`player` fields sent replace those fields. `latency_mode` changes only while pending ' +
        '(`409 stream_not_pending` once live or finished; sending the current value is always accepted).',
    },
    deleteStream: {
      summary: 'End or cancel a stream',
      description:
        'Pending: cancelled. Live: ended (`end_reason` `deleted`) and the publisher is disconnected. ' +
        'Finished: returned unchanged.',
    },
    rotateStreamKey: {
      summary: 'Replace the stream key',
      description: 'Only while pending; the old key and WHIP URL stop at once.',
    },
    getViewerSeries: {
      summary: 'Viewer series of a stream',
      description:
        'Per-minute viewer counts from the hosted player (`player`) and from CDN logs (`cdn`), and watch time ' +
        'per country.',
    },
  },
);
