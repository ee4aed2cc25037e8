import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { banBody, banTargetFlags, channelArg, channelChatPath, type BanDoc } from '../../../src/cli/chat.js';

export default class ChannelsBansCreate extends SvcCommand<typeof ChannelsBansCreate> {
  static override summary =
    'Ban a viewer from every stream of a channel, by viewer id or by one of their chat messages (POST /v1/channels/ID/chat/bans).';
  static override description =
    "The ban follows the person (the viewer token `sub`) across the channel's streams, present and future: their chat posts are shown only to themselves, and on members-only streams their video stops within five minutes. Banning someone already banned prints the existing ban.";
  static override examples = [
    '<%= config.bin %> channels bans create chn_2v6b0n5z8f3k2m9q7x1c --viewer-id pupil-4711',
    '<%= config.bin %> channels bans create chn_2v6b0n5z8f3k2m9q7x1c --message-id msg_3k2j4h5g6f7d8s9a0q1w --json',
  ];
  static override args = { channel: channelArg };
  static override flags = {
    ...apiFlags,
    ...banTargetFlags('msg_..., of any stream of the channel'),
  };

  async run(): Promise<BanDoc> {
    const f = this.flags;
    const ban = await this.apiClient(f).request<BanDoc>('POST', channelChatPath(this.args.channel, 'bans'), {
      body: banBody(f),
    });
    this.printRecord(ban);
    return ban;
  }
}
