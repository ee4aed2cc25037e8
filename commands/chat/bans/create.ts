import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { banBody, banTargetFlags, chatPath, streamArg, type BanDoc } from '../../../src/cli/chat.js';

export default class ChatBansCreate extends SvcCommand<typeof ChatBansCreate> {
  static override summary =
    'Ban a viewer from a stream, by viewer id or by one of their chat messages (POST /v1/streams/ID/chat/bans).';
  static override description =
    'The ban follows the person (the viewer token `sub`) to any browser: their chat posts are shown only to themselves, and on a members-only stream their video stops within five minutes. Banning someone already banned prints the existing ban.';
  static override examples = [
    '<%= config.bin %> chat bans create str_8f3k2m9q7x1c4v6b0n5z --viewer-id pupil-4711',
    '<%= config.bin %> chat bans create str_8f3k2m9q7x1c4v6b0n5z --message-id msg_3k2j4h5g6f7d8s9a0q1w --json',
  ];
  static override args = { stream: streamArg };
  static override flags = {
    ...apiFlags,
    ...banTargetFlags('msg_...'),
  };

  async run(): Promise<BanDoc> {
    const f = this.flags;
    const ban = await this.apiClient(f).request<BanDoc>('POST', chatPath(this.args.stream, 'bans'), {
      body: banBody(f),
    });
    this.printRecord(ban);
    return ban;
  }
}
