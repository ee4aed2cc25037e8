import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { channelArg, channelPath, type ChannelDoc } from '../../src/cli/channels.js';

export default class ChannelsDelete extends SvcCommand<typeof ChannelsDelete> {
  static override summary = 'Delete a channel (DELETE /v1/channels/ID); its finished streams stay, without it.';
  static override description =
    'Refused (409 channel_not_empty) while a stream of the channel is pending or live: end or cancel those first with `svc streams end ID`.';
  static override examples = ['<%= config.bin %> channels delete chn_4v6b0n5z8f3k2m9q7x1c'];
  static override args = { id: channelArg };
  static override flags = { ...apiFlags };

  async run(): Promise<ChannelDoc> {
    const channel = await this.apiClient(this.flags).request<ChannelDoc>('DELETE', channelPath(this.args.id));
    this.log(`deleted ${channel.id}`);
    return channel;
  }
}
