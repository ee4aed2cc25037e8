import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { endpointArg, webhookPath } from '../../src/cli/webhooks.js';

export default class WebhooksDelete extends SvcCommand<typeof WebhooksDelete> {
  static override summary =
    'Delete a webhook endpoint and its delivery log (DELETE /v1/webhooks/ID); queued deliveries are not sent.';
  static override examples = ['<%= config.bin %> webhooks delete whk_4k2m9q7x1c4v6b0n5z8f'];
  static override args = { id: endpointArg };
  static override flags = { ...apiFlags };

  async run() {
    const { id } = this.args;
    await this.apiClient(this.flags).request<null>('DELETE', webhookPath(id));
    this.log(`deleted ${id}`);
    // The API answers 204 without a body; --json still prints one document.
    return { id, object: 'webhook_endpoint' as const, deleted: true };
  }
}
