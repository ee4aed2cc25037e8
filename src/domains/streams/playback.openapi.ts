import { KEYED, operations } from '../../platform/http/openapi.js';

/** The playback operation as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Playback'], security: KEYED },
  {
    createPlaybackToken: {
      summary: 'Sign a playback URL',
      description:
        'A signed HLS URL for your own player. nginx checks the signature on every request: unsigned, altered ' +
        'or expired links get 403. Refused with `409 stream_ended` once the stream is finished.',
    },
  },
);
