import { Args } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { DELIVERY_KEYS, endpointArg, webhookPath, type DeliveryDoc } from '../../src/cli/webhooks.js';

export default class WebhooksRetry extends SvcCommand<typeof WebhooksRetry> {
  static override summary = 'Retry a delivery now (POST /v1/webhooks/ID/deliveries/DELIVERY_ID/retry).';
  static override description =
    'A failed delivery gets one more attempt; a pending one is brought forward. A delivery that succeeded is not_found.';
  static override examples = ['<%= config.bin %> webhooks retry whk_4k2m9q7x1c4v6b0n5z8f dlv_7b1v6c4d8s0a9f2k3m5n'];
  static override args = {
    id: endpointArg,
    delivery: Args.string({
      description: 'Delivery id (dlv_...), as `svc webhooks deliveries` shows it.',
      required: true,
    }),
  };
  static override flags = { ...apiFlags };

  async run(): Promise<DeliveryDoc> {
    const delivery = await this.apiClient(this.flags).request<DeliveryDoc>(
      'POST',
      webhookPath(this.args.id, 'deliveries', this.args.delivery, 'retry'),
    );
    this.printRecord(delivery, DELIVERY_KEYS);
    return delivery;
  }
}
