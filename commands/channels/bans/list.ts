import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import {
  BAN_COLUMNS,
  channelArg,
  channelChatPath,
  pageFlags,
  type BanDoc,
  type ListDoc,
} from '../../../src/cli/chat.js';

export default class ChannelsBansList extends SvcCommand<typeof ChannelsBansList> {
  static override summary = 'List the bans of a channel, newest first (GET /v1/channels/ID/chat/bans).';
  static override description =
    "The channel's own bans, which cover every stream of it (a stream's are listed with `svc chat bans list`).";
  static override examples = [
    '<%= config.bin %> channels bans list chn_2v6b0n5z8f3k2m9q7x1c',
    '<%= config.bin %> channels bans list chn_2v6b0n5z8f3k2m9q7x1c --limit 100 --json',
  ];
  static override args = { channel: channelArg };
  static override flags = { ...apiFlags, ...pageFlags('ban') };

  async run(): Promise<ListDoc<BanDoc>> {
    const f = this.flags;
    const list = await this.apiClient(f).request<ListDoc<BanDoc>>('GET', channelChatPath(this.args.channel, 'bans'), {
      query: { limit: f.limit, starting_after: f['starting-after'] },
    });
    this.printTable(list.data, BAN_COLUMNS, 'no bans');
    const last = list.data.at(-1);
    if (list.has_more && last)
      this.log(`\nMore: svc channels bans list ${this.args.channel} --starting-after ${last.id}`);
    return list;
  }
}
