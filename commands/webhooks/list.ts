import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { ENDPOINT_COLUMNS, type EndpointListDoc } from '../../src/cli/webhooks.js';

export default class WebhooksList extends SvcCommand<typeof WebhooksList> {
  static override summary = 'List the webhook endpoints of the account (GET /v1/webhooks), without secrets.';
  static override examples = [
    '<%= config.bin %> webhooks list',
    'SVC_API_KEY=svc_live_... <%= config.bin %> webhooks list --json',
  ];
  static override flags = { ...apiFlags };

  async run(): Promise<EndpointListDoc> {
    const list = await this.apiClient(this.flags).request<EndpointListDoc>('GET', 'v1/webhooks');
    this.printTable(
      list.data,
      ENDPOINT_COLUMNS,
      'no webhook endpoints: create one with `svc webhooks create --url https://...`',
    );
    return list;
  }
}
