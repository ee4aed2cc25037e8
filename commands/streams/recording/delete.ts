import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { streamIdArg, streamPath, type StreamDoc } from '../../../src/cli/streams.js';

export default class StreamsRecordingDelete extends SvcCommand<typeof StreamsRecordingDelete> {
  static override summary = "Delete a stream's recording (DELETE /v1/streams/ID/recording).";
  static override description =
    'A ready or failed recording is deleted at once (status deleted); one still being made becomes deleting and goes as soon as it exists. Prints the stream; without a recording it is unchanged.';
  static override examples = ['<%= config.bin %> streams recording delete str_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: streamIdArg };
  static override flags = { ...apiFlags };

  async run(): Promise<StreamDoc> {
    const stream = await this.apiClient(this.flags).request<StreamDoc>('DELETE', streamPath(this.args.id, 'recording'));
    this.printRecord(stream, ['id', 'status', 'recording']);
    return stream;
  }
}
