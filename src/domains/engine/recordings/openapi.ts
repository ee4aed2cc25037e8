import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The recordings operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Recordings'], security: KEYED },
  {
    deleteRecording: {
      summary: 'Delete the recording',
      description:
        'A ready (or failed) recording is deleted at once (`deleted`, event `recording.deleted`); one still ' +
        'being made is `deleting` and is deleted as soon as it exists. Without a recording the stream is ' +
        'returned unchanged.',
    },
    retryRecording: {
      summary: 'Make a failed recording again',
      description:
        'A `failed` recording goes back to `processing` with three new tries: what was streamed was kept. ' +
        '`recording.ready` or `recording.failed` follows. Any other status: `409 recording_not_failed` with ' +
        '`details.status`.',
    },
    createRecordingDownload: {
      summary: 'Sign a recording download',
      description:
        'A signed URL of the MP4 (range requests supported). `409 recording_not_ready` with `details.status` ' +
        'until the recording is ready.',
    },
  },
);
