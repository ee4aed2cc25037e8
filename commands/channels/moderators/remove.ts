import { Args } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { channelArg, channelChatPath } from '../../../src/cli/chat.js';

export default class ChannelsModeratorsRemove extends SvcCommand<typeof ChannelsModeratorsRemove> {
  static override summary = 'Remove a chat moderator of a channel (DELETE /v1/channels/ID/chat/moderators/MOD_ID).';
  static override description =
    "Their moderator actions on the channel's streams are refused within a few seconds; later moderator-role viewer tokens on any of its streams do not bring them back (inviting them again does).";
  static override examples = [
    '<%= config.bin %> channels moderators remove chn_2v6b0n5z8f3k2m9q7x1c mod_4k2m9q7x1c4v6b0n5z8f',
  ];
  static override args = {
    channel: channelArg,
    moderator: Args.string({
      description: 'Moderator id (mod_...), as `svc channels moderators list` shows it.',
      required: true,
    }),
  };
  static override flags = { ...apiFlags };

  async run() {
    const { channel, moderator } = this.args;
    await this.apiClient(this.flags).request<null>('DELETE', channelChatPath(channel, 'moderators', moderator));
    this.log(`removed ${moderator}`);
    return { id: moderator, object: 'moderator' as const, channel_id: channel, removed: true };
  }
}
