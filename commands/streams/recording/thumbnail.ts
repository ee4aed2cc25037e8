import { Flags } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { streamIdArg, streamPath } from '../../../src/cli/streams.js';
import type { Thumbnail } from '../../../src/domains/engine/recordings/thumbnails.schemas.js';

export default class StreamsRecordingThumbnail extends SvcCommand<typeof StreamsRecordingThumbnail> {
  static override summary =
    'Sign a URL of a still of the recording at a chosen second (GET /v1/streams/ID/recording/thumbnail).';
  static override description =
    'Made on the first ask, then kept with the recording. Until the recording is ready the API answers recording_not_ready with its status.';
  static override examples = [
    '<%= config.bin %> streams recording thumbnail str_8f3k2m9q7x1c4v6b0n5z --time 754.2',
    'curl -o still.jpg "$(<%= config.bin %> streams recording thumbnail str_8f3k2m9q7x1c4v6b0n5z --time 60 --json | jq -r .url)"',
  ];
  static override args = { id: streamIdArg };
  static override flags = {
    ...apiFlags,
    // A string: the API checks it (a number, 0 to the recording's duration) and names `time` if not.
    time: Flags.string({ summary: 'Second of the recording, to a tenth (default 0).' }),
    'expires-in': Flags.integer({
      summary: 'Seconds the link works (60 to 604800, default 3600).',
      min: 60,
      max: 604_800,
    }),
  };

  async run(): Promise<Thumbnail> {
    const f = this.flags;
    const thumbnail = await this.apiClient(f).request<Thumbnail>(
      'GET',
      streamPath(this.args.id, 'recording', 'thumbnail'),
      { query: { time: f.time, expires_in: f['expires-in'] } },
    );
    this.printRecord(thumbnail, ['url', 'time_seconds', 'expires_at']);
    return thumbnail;
  }
}
