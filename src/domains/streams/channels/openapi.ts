import { KEYED, operations } from '../../../platform/http/openapi.js';
import { MAX_CHANNELS } from './schemas.js';

/** The channels operations as the API reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Channels'], security: KEYED },
  {
    createChannel: {
      summary: 'Create a channel',
      description:
        'A recurring show: a name, and the `player` and `chat` settings that streams created in it ' +
        "(`channel_id` on `POST /v1/streams`) start with; fields left out take the streams' defaults. " +
        `At most ${MAX_CHANNELS} per account (\`429 limit_channels\`). The body may be left out. Accepts an ` +
        '`Idempotency-Key` header like stream creation.',
    },
    listChannels: {
      summary: 'List channels',
      description: 'Newest first, paged like the stream list (`limit` 1-100, default 20; `starting_after`).',
    },
    getChannel: {
      summary: 'Get a channel',
      description: "`live_stream_id` names the channel's stream that is live now, if any.",
    },
    updateChannel: {
      summary: 'Change a channel',
      description:
        'Fields left out stay, null clears, `metadata` is replaced whole, `player` and `chat` merge. ' +
        'Streams created from now on start with the new settings; existing streams keep theirs ' +
        '(change them with `PATCH /v1/streams/{id}`).',
    },
    deleteChannel: {
      summary: 'Delete a channel',
      description:
        'Refused with `409 channel_not_empty` while a stream of the channel is pending or live: end or cancel ' +
        'those first. Its finished streams keep existing, with `channel_id` null. Answers the channel as it was, ' +
        'with `deleted: true`.',
    },
  },
);
