import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import {
  channelArg,
  channelChatPath,
  MODERATOR_COLUMNS,
  pageFlags,
  type ListDoc,
  type ModeratorDoc,
} from '../../../src/cli/chat.js';

export default class ChannelsModeratorsList extends SvcCommand<typeof ChannelsModeratorsList> {
  static override summary =
    'List the chat moderators of a channel, newest first (GET /v1/channels/ID/chat/moderators).';
  static override description =
    "The channel's own moderators (a stream's are listed with `svc chat moderators list`). Removed moderators are left out; expired ones are listed.";
  static override examples = [
    '<%= config.bin %> channels moderators list chn_2v6b0n5z8f3k2m9q7x1c',
    '<%= config.bin %> channels moderators list chn_2v6b0n5z8f3k2m9q7x1c --json',
  ];
  static override args = { channel: channelArg };
  static override flags = { ...apiFlags, ...pageFlags('moderator') };

  async run(): Promise<ListDoc<ModeratorDoc>> {
    const f = this.flags;
    const list = await this.apiClient(f).request<ListDoc<ModeratorDoc>>(
      'GET',
      channelChatPath(this.args.channel, 'moderators'),
      { query: { limit: f.limit, starting_after: f['starting-after'] } },
    );
    this.printTable(list.data, MODERATOR_COLUMNS, 'no moderators');
    const last = list.data.at(-1);
    if (list.has_more && last)
      this.log(`\nMore: svc channels moderators list ${this.args.channel} --starting-after ${last.id}`);
    return list;
  }
}
