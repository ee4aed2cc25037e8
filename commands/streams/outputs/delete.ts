import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { outputArg, outputsPath } from '../../../src/cli/outputs.js';
import { streamIdArg } from '../../../src/cli/streams.js';

export default class StreamsOutputsDelete extends SvcCommand<typeof StreamsOutputsDelete> {
  static override summary =
    'Delete a restreaming output; pushing to it stops (DELETE /v1/streams/ID/outputs/OUTPUT_ID).';
  static override examples = [
    '<%= config.bin %> streams outputs delete str_8f3k2m9q7x1c4v6b0n5z out_6b0n5z8f3k2m9q7x1c4v',
  ];
  static override args = { stream: streamIdArg, output: outputArg };
  static override flags = { ...apiFlags };

  async run() {
    const { stream, output } = this.args;
    await this.apiClient(this.flags).request<null>('DELETE', outputsPath(stream, output));
    this.log(`deleted ${output}`);
    // The API answers 204 without a body; --json still prints one document.
    return { id: output, object: 'stream_output' as const, stream_id: stream, deleted: true };
  }
}
