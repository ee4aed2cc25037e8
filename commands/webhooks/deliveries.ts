import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { DELIVERY_COLUMNS, endpointArg, webhookPath, type DeliveryListDoc } from '../../src/cli/webhooks.js';

export default class WebhooksDeliveries extends SvcCommand<typeof WebhooksDeliveries> {
  static override summary = 'List the deliveries of an endpoint, newest first (GET /v1/webhooks/ID/deliveries).';
  static override examples = [
    '<%= config.bin %> webhooks deliveries whk_4k2m9q7x1c4v6b0n5z8f',
    '<%= config.bin %> webhooks deliveries whk_4k2m9q7x1c4v6b0n5z8f --status failed --limit 100 --json',
  ];
  static override args = { id: endpointArg };
  static override flags = {
    ...apiFlags,
    limit: Flags.integer({ summary: 'Page size (1-100, default 20).', min: 1, max: 100 }),
    status: Flags.string({ summary: 'Only deliveries in this status.', options: ['pending', 'succeeded', 'failed'] }),
    'starting-after': Flags.string({ summary: 'Next page: the id of the last delivery of the previous one.' }),
  };

  async run(): Promise<DeliveryListDoc> {
    const f = this.flags;
    const list = await this.apiClient(f).request<DeliveryListDoc>('GET', webhookPath(this.args.id, 'deliveries'), {
      query: { limit: f.limit, status: f.status, starting_after: f['starting-after'] },
    });
    this.printTable(list.data, DELIVERY_COLUMNS, 'no deliveries');
    const last = list.data.at(-1);
    if (list.has_more && last) this.log(`\nMore: svc webhooks deliveries ${this.args.id} --starting-after ${last.id}`);
    return list;
  }
}
