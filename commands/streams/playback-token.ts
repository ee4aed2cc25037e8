import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { streamIdArg, streamPath } from '../../src/cli/streams.js';
import type { PlaybackToken } from '../../src/domains/streams/playback.schemas.js';

export default class StreamsPlaybackToken extends SvcCommand<typeof StreamsPlaybackToken> {
  static override summary = 'Sign an HLS playback URL for your own player (POST /v1/streams/ID/playback-token).';
  static override description =
    'nginx checks the signature on every request: altered or expired links get 403. Refused once the stream is finished.';
  static override examples = [
    '<%= config.bin %> streams playback-token str_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> streams playback-token str_8f3k2m9q7x1c4v6b0n5z --expires-in 3600 --json',
  ];
  static override args = { id: streamIdArg };
  static override flags = {
    ...apiFlags,
    'expires-in': Flags.integer({
      summary:
        'Seconds the link works (60 to 604800); default: until the stream could no longer be live, plus one hour.',
      min: 60,
      max: 604_800,
    }),
  };

  async run(): Promise<PlaybackToken> {
    const f = this.flags;
    const body = f['expires-in'] === undefined ? {} : { expires_in: f['expires-in'] };
    const token = await this.apiClient(f).request<PlaybackToken>('POST', streamPath(this.args.id, 'playback-token'), {
      body,
      readOnly: true,
    });
    this.printRecord(token, ['playback_url', 'expires_at']);
    return token;
  }
}
