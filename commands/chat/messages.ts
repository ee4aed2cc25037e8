import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import {
  chatPath,
  MESSAGE_COLUMNS,
  pageFlags,
  streamArg,
  type ChatMessageDoc,
  type ListDoc,
} from '../../src/cli/chat.js';

export default class ChatMessages extends SvcCommand<typeof ChatMessages> {
  static override summary =
    "List a stream's chat messages, newest first, deleted and hidden ones included (GET /v1/streams/ID/chat/messages).";
  static override description =
    'Each message with the viewer id of its author (to ban with `svc chat bans create`), whether it was deleted and by whom, and whether it is hidden (its author is banned: only they see it).';
  static override examples = [
    '<%= config.bin %> chat messages str_8f3k2m9q7x1c4v6b0n5z --limit 50',
    '<%= config.bin %> chat messages str_8f3k2m9q7x1c4v6b0n5z --json',
  ];
  static override args = { stream: streamArg };
  static override flags = { ...apiFlags, ...pageFlags('message') };

  async run(): Promise<ListDoc<ChatMessageDoc>> {
    const f = this.flags;
    const list = await this.apiClient(f).request<ListDoc<ChatMessageDoc>>(
      'GET',
      chatPath(this.args.stream, 'messages'),
      { query: { limit: f.limit, starting_after: f['starting-after'] } },
    );
    this.printTable(list.data, MESSAGE_COLUMNS, 'no messages');
    const last = list.data.at(-1);
    if (list.has_more && last) this.log(`\nMore: svc chat messages ${this.args.stream} --starting-after ${last.id}`);
    return list;
  }
}
