import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { STREAM_KEYS, type StreamDoc, streamIdArg, streamPath } from '../../src/cli/streams.js';

export default class StreamsEnd extends SvcCommand<typeof StreamsEnd> {
  static override summary = 'End a live stream or cancel a pending one (DELETE /v1/streams/ID).';
  static override examples = ['<%= config.bin %> streams end str_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: streamIdArg };
  static override flags = { ...apiFlags };

  async run(): Promise<StreamDoc> {
    const stream = await this.apiClient(this.flags).request<StreamDoc>('DELETE', streamPath(this.args.id));
    this.printRecord(stream, STREAM_KEYS);
    return stream;
  }
}
