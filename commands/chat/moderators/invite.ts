import { Flags } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { chatPath, MODERATOR_KEYS, streamArg, type ModeratorDoc } from '../../../src/cli/chat.js';

export default class ChatModeratorsInvite extends SvcCommand<typeof ChatModeratorsInvite> {
  static override summary = 'Invite a chat moderator and print their link (POST /v1/streams/ID/chat/moderators).';
  static override description =
    "Whoever opens the link moderates the stream's chat (deletes messages, bans viewers, sets slow mode) until active_until. With --viewer-id, that viewer's own viewer tokens make them a moderator too, and inviting them again renews the same moderator.";
  static override examples = [
    '<%= config.bin %> chat moderators invite str_8f3k2m9q7x1c4v6b0n5z --name "Ms Rivera"',
    '<%= config.bin %> chat moderators invite str_8f3k2m9q7x1c4v6b0n5z --name "Ms Rivera" --viewer-id teacher-17 --days 7 --json',
  ];
  static override args = { stream: streamArg };
  static override flags = {
    ...apiFlags,
    name: Flags.string({ summary: 'Shown on their chat posts (1-40 characters).', required: true }),
    'viewer-id': Flags.string({
      summary: 'Their viewer id (viewer token `sub`), if they also come with viewer tokens.',
    }),
    days: Flags.integer({ summary: 'Active for this many days from now (1-30, default 30).', min: 1, max: 30 }),
  };

  async run(): Promise<ModeratorDoc> {
    const f = this.flags;
    const body = { name: f.name, viewer_id: f['viewer-id'], active_days: f.days };
    const moderator = await this.apiClient(f).request<ModeratorDoc>('POST', chatPath(this.args.stream, 'moderators'), {
      body,
    });
    this.printRecord(moderator, MODERATOR_KEYS);
    this.log(
      '\nSend the link privately: whoever opens it moderates the chat until active_until. `svc chat moderators list --json` shows it again.',
    );
    return moderator;
  }
}
