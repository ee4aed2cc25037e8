import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The outputs operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Restreaming outputs'], security: KEYED },
  {
    createStreamOutput: {
      summary: 'Add a restreaming output to a stream',
      description:
        'While the stream is live, its source is pushed as sent (no re-encoding) to each enabled output: ' +
        '`url` plus `/` plus `stream_key` for rtmp and rtmps, the key as the SRT `streamid` for srt. At most 5 ' +
        'per stream (`429 limit_stream_outputs`). Only while the stream is pending or live (`409 stream_ended` ' +
        'after). The host must be on the public internet (unless the operator allows private networks) and must ' +
        'resolve when saved. `stream_key` is never shown again, not even in this answer: it comes back masked. ' +
        'Accepts an `Idempotency-Key` header like stream creation.',
    },
    listStreamOutputs: {
      summary: "List a stream's outputs",
      description: 'Oldest first; at most 5, so always one page. Keys masked.',
    },
    getStreamOutput: {
      summary: 'Get a restreaming output',
      description: '`status`, `last_error`, `connected_at` and `bytes_sent` are written by the node that pushes.',
    },
    updateStreamOutput: {
      summary: 'Change a restreaming output',
      description:
        'Fields left out are unchanged; `status` and the other read-only fields are refused. A new `url` or ' +
        '`stream_key` sets `status` back to `idle` (with `last_error` and `connected_at` cleared) and the push ' +
        'reconnects with it; `enabled: false` stops pushing. Only while the stream is pending or live.',
    },
    deleteStreamOutput: {
      summary: 'Delete a restreaming output',
      description: 'Stops pushing to it; allowed whatever the state of the stream.',
    },
  },
);
