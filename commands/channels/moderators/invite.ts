import { Flags } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { channelArg, channelChatPath, MODERATOR_KEYS, type ModeratorDoc } from '../../../src/cli/chat.js';

export default class ChannelsModeratorsInvite extends SvcCommand<typeof ChannelsModeratorsInvite> {
  static override summary =
    'Invite a chat moderator of every stream of a channel (POST /v1/channels/ID/chat/moderators).';
  static override description =
    "The viewer's own viewer tokens open moderator sessions on any stream of the channel, present and future, until active_until; a ban they make there covers the whole channel. Inviting them again renews the same moderator.";
  static override examples = [
    '<%= config.bin %> channels moderators invite chn_2v6b0n5z8f3k2m9q7x1c --viewer-id teacher-17 --name "Ms Rivera"',
    '<%= config.bin %> channels moderators invite chn_2v6b0n5z8f3k2m9q7x1c --viewer-id teacher-17 --name "Ms Rivera" --days 7 --json',
  ];
  static override args = { channel: channelArg };
  static override flags = {
    ...apiFlags,
    name: Flags.string({ summary: 'Shown on their chat posts (1-40 characters).', required: true }),
    'viewer-id': Flags.string({ summary: 'Their viewer id (viewer token `sub`).', required: true }),
    days: Flags.integer({ summary: 'Active for this many days from now (1-30, default 30).', min: 1, max: 30 }),
  };

  async run(): Promise<ModeratorDoc> {
    const f = this.flags;
    const body = { name: f.name, viewer_id: f['viewer-id'], active_days: f.days };
    const moderator = await this.apiClient(f).request<ModeratorDoc>(
      'POST',
      channelChatPath(this.args.channel, 'moderators'),
      { body },
    );
    this.printRecord(moderator, MODERATOR_KEYS);
    return moderator;
  }
}
