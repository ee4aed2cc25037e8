import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { OUTPUT_COLUMNS, outputsPath, type OutputListDoc } from '../../../src/cli/outputs.js';
import { streamIdArg } from '../../../src/cli/streams.js';

export default class StreamsOutputsList extends SvcCommand<typeof StreamsOutputsList> {
  static override summary = "List a stream's restreaming outputs (GET /v1/streams/ID/outputs), keys masked.";
  static override examples = ['<%= config.bin %> streams outputs list str_8f3k2m9q7x1c4v6b0n5z --json'];
  static override args = { stream: streamIdArg };
  static override flags = { ...apiFlags };

  async run(): Promise<OutputListDoc> {
    const list = await this.apiClient(this.flags).request<OutputListDoc>('GET', outputsPath(this.args.stream));
    this.printTable(
      list.data,
      OUTPUT_COLUMNS,
      'no outputs: add one with `svc streams outputs create STREAM --url rtmp://...`',
    );
    return list;
  }
}
