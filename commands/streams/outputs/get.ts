import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { OUTPUT_KEYS, outputArg, outputsPath, type OutputDoc } from '../../../src/cli/outputs.js';
import { streamIdArg } from '../../../src/cli/streams.js';

export default class StreamsOutputsGet extends SvcCommand<typeof StreamsOutputsGet> {
  static override summary =
    'Show one restreaming output with its status and bytes sent (GET /v1/streams/ID/outputs/OUTPUT_ID).';
  static override examples = [
    '<%= config.bin %> streams outputs get str_8f3k2m9q7x1c4v6b0n5z out_6b0n5z8f3k2m9q7x1c4v',
  ];
  static override args = { stream: streamIdArg, output: outputArg };
  static override flags = { ...apiFlags };

  async run(): Promise<OutputDoc> {
    const { stream, output } = this.args;
    const doc = await this.apiClient(this.flags).request<OutputDoc>('GET', outputsPath(stream, output));
    this.printRecord(doc, OUTPUT_KEYS);
    return doc;
  }
}
