import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { CHANNEL_KEYS, channelArg, channelPath, type ChannelDoc } from '../../src/cli/channels.js';

export default class ChannelsGet extends SvcCommand<typeof ChannelsGet> {
  static override summary = 'Show a channel (GET /v1/channels/ID), with its live stream if one is live.';
  static override examples = ['<%= config.bin %> channels get chn_4v6b0n5z8f3k2m9q7x1c'];
  static override args = { id: channelArg };
  static override flags = { ...apiFlags };

  async run(): Promise<ChannelDoc> {
    const channel = await this.apiClient(this.flags).request<ChannelDoc>('GET', channelPath(this.args.id));
    this.printRecord(channel, CHANNEL_KEYS);
    return channel;
  }
}
