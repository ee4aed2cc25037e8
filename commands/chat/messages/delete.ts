import { Args } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { chatPath, streamArg, type ChatMessageDoc } from '../../../src/cli/chat.js';

export default class ChatMessagesDelete extends SvcCommand<typeof ChatMessagesDelete> {
  static override summary =
    'Delete a chat message from every feed and from the history (DELETE /v1/streams/ID/chat/messages/MESSAGE_ID).';
  static override description = 'Prints the deleted message (deleted_by: owner), also when it was already deleted.';
  static override examples = [
    '<%= config.bin %> chat messages delete str_8f3k2m9q7x1c4v6b0n5z msg_3k2j4h5g6f7d8s9a0q1w',
  ];
  static override args = {
    stream: streamArg,
    message: Args.string({ description: 'Message id (msg_...), as `svc chat messages` shows it.', required: true }),
  };
  static override flags = { ...apiFlags };

  async run(): Promise<ChatMessageDoc> {
    const message = await this.apiClient(this.flags).request<ChatMessageDoc>(
      'DELETE',
      chatPath(this.args.stream, 'messages', this.args.message),
    );
    this.printRecord(message, ['id', 'text', 'deleted_at', 'deleted_by']);
    return message;
  }
}
