import { Args } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { SECRET_KEYS, withPublishUrl, type StreamDoc } from '../../src/cli/streams.js';

export default class StreamsRotateKey extends SvcCommand<typeof StreamsRotateKey> {
  static override summary = 'Replace the stream key of a pending stream; the old key stops at once.';
  static override examples = ['<%= config.bin %> streams rotate-key str_8f3k2m9q7x1c4v6b0n5z'];
  static override args = { id: Args.string({ description: 'Stream id (str_...).', required: true }) };
  static override flags = { ...apiFlags };

  async run(): Promise<StreamDoc> {
    const stream = withPublishUrl(await this.apiClient(this.flags).request<StreamDoc>('POST', `v1/streams/${encodeURIComponent(this.args.id)}/stream-key`));
    this.printRecord(stream, ['id', 'status', ...SECRET_KEYS]);
    this.warnSecret('new stream key (and the WHIP URL and publish page address, which contain it)');
    return stream;
  }
}
