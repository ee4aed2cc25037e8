import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { STREAM_COLUMNS, type StreamListDoc } from '../../src/cli/streams.js';

export default class StreamsList extends SvcCommand<typeof StreamsList> {
  static override summary = 'List streams, newest first (GET /v1/streams).';
  static override examples = [
    '<%= config.bin %> streams list --status live',
    '<%= config.bin %> streams list --limit 100 --starting-after str_8f3k2m9q7x1c4v6b0n5z --json',
  ];
  static override flags = {
    ...apiFlags,
    limit: Flags.integer({ summary: 'Page size (1-100, default 20).', min: 1, max: 100 }),
    status: Flags.string({
      summary: 'Only streams in this status.',
      options: ['pending', 'live', 'ended', 'expired', 'cancelled'],
    }),
    'starting-after': Flags.string({ summary: 'Next page: the id of the last stream of the previous one.' }),
  };

  async run(): Promise<StreamListDoc> {
    const f = this.flags;
    const list = await this.apiClient(f).request<StreamListDoc>('GET', 'v1/streams', {
      query: { limit: f.limit, status: f.status, starting_after: f['starting-after'] },
    });
    this.printTable(list.data, STREAM_COLUMNS, 'no streams');
    const last = list.data.at(-1);
    if (list.has_more && last) this.log(`\nMore: svc streams list --starting-after ${last.id}`);
    return list;
  }
}
