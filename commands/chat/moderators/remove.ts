import { Args } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { chatPath, streamArg } from '../../../src/cli/chat.js';

export default class ChatModeratorsRemove extends SvcCommand<typeof ChatModeratorsRemove> {
  static override summary = 'Remove a chat moderator (DELETE /v1/streams/ID/chat/moderators/MOD_ID).';
  static override description =
    'Their link stops working at once and their moderator actions within a few seconds; later moderator-role viewer tokens do not bring them back (inviting them again does).';
  static override examples = [
    '<%= config.bin %> chat moderators remove str_8f3k2m9q7x1c4v6b0n5z mod_4k2m9q7x1c4v6b0n5z8f',
  ];
  static override args = {
    stream: streamArg,
    moderator: Args.string({
      description: 'Moderator id (mod_...), as `svc chat moderators list` shows it.',
      required: true,
    }),
  };
  static override flags = { ...apiFlags };

  async run() {
    const { stream, moderator } = this.args;
    await this.apiClient(this.flags).request<null>('DELETE', chatPath(stream, 'moderators', moderator));
    this.log(`removed ${moderator}`);
    return { id: moderator, object: 'moderator' as const, stream_id: stream, removed: true };
  }
}
