import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { BAN_COLUMNS, chatPath, pageFlags, streamArg, type BanDoc, type ListDoc } from '../../../src/cli/chat.js';

export default class ChatBansList extends SvcCommand<typeof ChatBansList> {
  static override summary = 'List the bans of a stream, newest first (GET /v1/streams/ID/chat/bans).';
  static override examples = [
    '<%= config.bin %> chat bans list str_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> chat bans list str_8f3k2m9q7x1c4v6b0n5z --limit 100 --json',
  ];
  static override args = { stream: streamArg };
  static override flags = { ...apiFlags, ...pageFlags('ban') };

  async run(): Promise<ListDoc<BanDoc>> {
    const f = this.flags;
    const list = await this.apiClient(f).request<ListDoc<BanDoc>>('GET', chatPath(this.args.stream, 'bans'), {
      query: { limit: f.limit, starting_after: f['starting-after'] },
    });
    this.printTable(list.data, BAN_COLUMNS, 'no bans');
    const last = list.data.at(-1);
    if (list.has_more && last) this.log(`\nMore: svc chat bans list ${this.args.stream} --starting-after ${last.id}`);
    return list;
  }
}
