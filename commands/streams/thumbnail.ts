import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { streamIdArg, streamPath } from '../../src/cli/streams.js';
import type { Thumbnail } from '../../src/domains/engine/recordings/thumbnails.schemas.js';

export default class StreamsThumbnail extends SvcCommand<typeof StreamsThumbnail> {
  static override summary = "Sign a URL of a stream's current still (GET /v1/streams/ID/thumbnail).";
  static override description =
    'A JPEG at most 360 lines high, renewed every 20 s while the stream is live and kept after it ends. Before the first still the API answers thumbnail_not_ready.';
  static override examples = [
    '<%= config.bin %> streams thumbnail str_8f3k2m9q7x1c4v6b0n5z',
    'curl -o still.jpg "$(<%= config.bin %> streams thumbnail str_8f3k2m9q7x1c4v6b0n5z --json | jq -r .url)"',
  ];
  static override args = { id: streamIdArg };
  static override flags = {
    ...apiFlags,
    'expires-in': Flags.integer({
      summary: 'Seconds the link works (60 to 604800, default 3600).',
      min: 60,
      max: 604_800,
    }),
  };

  async run(): Promise<Thumbnail> {
    const thumbnail = await this.apiClient(this.flags).request<Thumbnail>(
      'GET',
      streamPath(this.args.id, 'thumbnail'),
      {
        query: { expires_in: this.flags['expires-in'] },
      },
    );
    this.printRecord(thumbnail, ['url', 'captured_at', 'expires_at']);
    return thumbnail;
  }
}
