import { Args } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { chatPath, streamArg } from '../../../src/cli/chat.js';

export default class ChatBansDelete extends SvcCommand<typeof ChatBansDelete> {
  static override summary =
    'Lift a ban (DELETE /v1/streams/ID/chat/bans/BAN_ID): the viewer may post and watch again at once.';
  static override examples = ['<%= config.bin %> chat bans delete str_8f3k2m9q7x1c4v6b0n5z ban_4d8s0a9f2k3m5n7b1v6c'];
  static override args = {
    stream: streamArg,
    ban: Args.string({ description: 'Ban id (ban_...), as `svc chat bans list` shows it.', required: true }),
  };
  static override flags = { ...apiFlags };

  async run() {
    const { stream, ban } = this.args;
    await this.apiClient(this.flags).request<null>('DELETE', chatPath(stream, 'bans', ban));
    this.log(`lifted ${ban}`);
    return { id: ban, object: 'ban' as const, stream_id: stream, deleted: true };
  }
}
