import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import {
  chatPath,
  MODERATOR_COLUMNS,
  pageFlags,
  streamArg,
  type ListDoc,
  type ModeratorDoc,
} from '../../../src/cli/chat.js';

export default class ChatModeratorsList extends SvcCommand<typeof ChatModeratorsList> {
  static override summary = 'List the chat moderators of a stream, newest first (GET /v1/streams/ID/chat/moderators).';
  static override description =
    "Removed moderators are left out; expired ones are listed (invite them again to renew). --json includes each invitation's link.";
  static override examples = [
    '<%= config.bin %> chat moderators list str_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> chat moderators list str_8f3k2m9q7x1c4v6b0n5z --json',
  ];
  static override args = { stream: streamArg };
  static override flags = { ...apiFlags, ...pageFlags('moderator') };

  async run(): Promise<ListDoc<ModeratorDoc>> {
    const f = this.flags;
    const list = await this.apiClient(f).request<ListDoc<ModeratorDoc>>(
      'GET',
      chatPath(this.args.stream, 'moderators'),
      { query: { limit: f.limit, starting_after: f['starting-after'] } },
    );
    this.printTable(list.data, MODERATOR_COLUMNS, 'no moderators');
    const last = list.data.at(-1);
    if (list.has_more && last)
      this.log(`\nMore: svc chat moderators list ${this.args.stream} --starting-after ${last.id}`);
    return list;
  }
}
