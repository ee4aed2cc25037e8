import { Args } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { channelArg, channelChatPath } from '../../../src/cli/chat.js';

export default class ChannelsBansDelete extends SvcCommand<typeof ChannelsBansDelete> {
  static override summary =
    "Lift a channel's ban (DELETE /v1/channels/ID/chat/bans/BAN_ID): the viewer may post and watch on its streams again at once.";
  static override examples = [
    '<%= config.bin %> channels bans delete chn_2v6b0n5z8f3k2m9q7x1c ban_4d8s0a9f2k3m5n7b1v6c',
  ];
  static override args = {
    channel: channelArg,
    ban: Args.string({ description: 'Ban id (ban_...), as `svc channels bans list` shows it.', required: true }),
  };
  static override flags = { ...apiFlags };

  async run() {
    const { channel, ban } = this.args;
    await this.apiClient(this.flags).request<null>('DELETE', channelChatPath(channel, 'bans', ban));
    this.log(`lifted ${ban}`);
    return { id: ban, object: 'ban' as const, channel_id: channel, deleted: true };
  }
}
