import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { endpointArg, webhookPath, type EndpointDoc } from '../../src/cli/webhooks.js';

export default class WebhooksRotateSecret extends SvcCommand<typeof WebhooksRotateSecret> {
  static override summary = 'Replace the signing secret of an endpoint (POST /v1/webhooks/ID/secret).';
  static override description =
    'The old secret keeps signing for 24 hours: each request then carries two signatures, so receivers can switch without losing one.';
  static override examples = ['<%= config.bin %> webhooks rotate-secret whk_4k2m9q7x1c4v6b0n5z8f'];
  static override args = { id: endpointArg };
  static override flags = { ...apiFlags };

  async run(): Promise<EndpointDoc> {
    const endpoint = await this.apiClient(this.flags).request<EndpointDoc>('POST', webhookPath(this.args.id, 'secret'));
    this.printRecord(endpoint, ['id', 'url', 'secret']);
    this.log('\nThe old secret signs too for 24 hours: switch the receiver to the new one within that time.');
    return endpoint;
  }
}
