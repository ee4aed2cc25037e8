import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { DELIVERY_KEYS, endpointArg, webhookPath, type DeliveryDoc } from '../../src/cli/webhooks.js';

export default class WebhooksTest extends SvcCommand<typeof WebhooksTest> {
  static override summary = 'Send a webhook.test event to an endpoint (POST /v1/webhooks/ID/test).';
  static override description =
    'Prints the queued delivery; it is sent within a couple of seconds. Follow it with `svc webhooks deliveries ID`.';
  static override examples = ['<%= config.bin %> webhooks test whk_4k2m9q7x1c4v6b0n5z8f'];
  static override args = { id: endpointArg };
  static override flags = { ...apiFlags };

  async run(): Promise<DeliveryDoc> {
    const delivery = await this.apiClient(this.flags).request<DeliveryDoc>('POST', webhookPath(this.args.id, 'test'));
    this.printRecord(delivery, DELIVERY_KEYS);
    return delivery;
  }
}
