import { KEYED, operations } from '../../../platform/http/openapi.js';

/** The thumbnail operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Thumbnails'], security: KEYED },
  {
    getThumbnail: {
      summary: "Sign the stream's current still",
      description:
        'A signed URL of the latest still (taken every 20 s while live, 60 s for passthrough; kept after the ' +
        'end). `409 thumbnail_not_ready` with `details.status` until the first still exists.',
    },
    getRecordingThumbnail: {
      summary: 'Sign a still of the recording at a chosen second',
      description:
        'Made on the first ask (one short ffmpeg), then kept with the recording (at most 100 per recording; ' +
        'deleted with it). `time` beyond `recording.duration_seconds` is `400 invalid_request`; ' +
        '`409 recording_not_ready` with `details.status` until the recording is ready; `503 service_unavailable` ' +
        'with `Retry-After` when the still cannot be made just now.',
    },
  },
);
