import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { streamIdArg, streamPath, type StreamDoc } from '../../../src/cli/streams.js';

export default class StreamsRecordingRetry extends SvcCommand<typeof StreamsRecordingRetry> {
  static override summary = 'Make a failed recording again (POST /v1/streams/ID/recording/retry).';
  static override description =
    'A failed recording goes back to processing with three new tries (what was streamed was kept). Prints the stream; any other status is refused with recording_not_failed.';
  static override examples = ['<%= config.bin %> streams recording retry str_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: streamIdArg };
  static override flags = { ...apiFlags };

  async run(): Promise<StreamDoc> {
    const stream = await this.apiClient(this.flags).request<StreamDoc>(
      'POST',
      streamPath(this.args.id, 'recording', 'retry'),
    );
    this.printRecord(stream, ['id', 'status', 'recording']);
    return stream;
  }
}
