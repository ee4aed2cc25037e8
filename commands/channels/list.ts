import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { CHANNEL_COLUMNS, type ChannelListDoc } from '../../src/cli/channels.js';

export default class ChannelsList extends SvcCommand<typeof ChannelsList> {
  static override summary = 'List channels, newest first (GET /v1/channels).';
  static override examples = [
    '<%= config.bin %> channels list',
    '<%= config.bin %> channels list --limit 100 --starting-after chn_4v6b0n5z8f3k2m9q7x1c --json',
  ];
  static override flags = {
    ...apiFlags,
    limit: Flags.integer({ summary: 'Page size (1-100, default 20).', min: 1, max: 100 }),
    'starting-after': Flags.string({ summary: 'Next page: the id of the last channel of the previous one.' }),
  };

  async run(): Promise<ChannelListDoc> {
    const f = this.flags;
    const list = await this.apiClient(f).request<ChannelListDoc>('GET', 'v1/channels', {
      query: { limit: f.limit, starting_after: f['starting-after'] },
    });
    this.printTable(list.data, CHANNEL_COLUMNS, 'no channels: create one with `svc channels create --name ...`');
    const last = list.data.at(-1);
    if (list.has_more && last) this.log(`\nMore: svc channels list --starting-after ${last.id}`);
    return list;
  }
}
