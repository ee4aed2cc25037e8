import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { ENDPOINT_KEYS, endpointArg, eventsText, webhookPath, type EndpointDoc } from '../../src/cli/webhooks.js';

export default class WebhooksGet extends SvcCommand<typeof WebhooksGet> {
  static override summary = 'Show one webhook endpoint with its signing secret (GET /v1/webhooks/ID).';
  static override examples = ['<%= config.bin %> webhooks get whk_4k2m9q7x1c4v6b0n5z8f'];
  static override args = { id: endpointArg };
  static override flags = { ...apiFlags };

  async run(): Promise<EndpointDoc> {
    const endpoint = await this.apiClient(this.flags).request<EndpointDoc>('GET', webhookPath(this.args.id));
    this.printRecord({ ...endpoint, events: eventsText(endpoint) }, [...ENDPOINT_KEYS, 'secret']);
    return endpoint;
  }
}
