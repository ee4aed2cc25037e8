import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import {
  publishText,
  SECRET_WHAT,
  streamIdArg,
  streamPath,
  withPublishUrl,
  type StreamDoc,
} from '../../src/cli/streams.js';

export default class StreamsRotateKey extends SvcCommand<typeof StreamsRotateKey> {
  static override summary =
    'Replace the stream key of a pending stream (POST /v1/streams/ID/stream-key); the old key stops at once.';
  static override examples = ['<%= config.bin %> streams rotate-key str_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: streamIdArg };
  static override flags = { ...apiFlags };

  async run(): Promise<StreamDoc> {
    const stream = withPublishUrl(
      await this.apiClient(this.flags).request<StreamDoc>('POST', streamPath(this.args.id, 'stream-key')),
    );
    this.printRecord(stream, ['id', 'status']);
    this.log('');
    this.log(publishText(stream));
    this.warnSecret(`new ${SECRET_WHAT}`);
    return stream;
  }
}
