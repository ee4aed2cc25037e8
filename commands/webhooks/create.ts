import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { ENDPOINT_KEYS, eventsText, type EndpointDoc } from '../../src/cli/webhooks.js';

export default class WebhooksCreate extends SvcCommand<typeof WebhooksCreate> {
  static override summary = 'Create a webhook endpoint (POST /v1/webhooks); prints its signing secret.';
  static override description =
    'The URL must be https on the public internet unless the operator set allow_private_webhooks (svc init --allow-private-webhooks). Without --events the endpoint gets every event type, including types added later.';
  static override examples = [
    '<%= config.bin %> webhooks create --url https://hooks.example.com/svc',
    '<%= config.bin %> webhooks create --url https://hooks.example.com/svc --events stream.live,recording.ready --description "Production" --json',
  ];
  static override flags = {
    ...apiFlags,
    url: Flags.string({ summary: 'Receiver URL (https, up to 2000 characters).', required: true }),
    events: Flags.string({
      summary: 'Comma-separated event types (default: all, including later ones).',
      multiple: true,
      delimiter: ',',
    }),
    description: Flags.string({ summary: 'Label (up to 200 characters).' }),
  };

  async run(): Promise<EndpointDoc> {
    const f = this.flags;
    const body: Record<string, unknown> = { url: f.url };
    if (f.events?.length) body.events = f.events.map((e) => e.trim()).filter(Boolean);
    if (f.description !== undefined) body.description = f.description;
    const endpoint = await this.apiClient(f).request<EndpointDoc>('POST', 'v1/webhooks', { body });
    this.printRecord({ ...endpoint, events: eventsText(endpoint) }, [...ENDPOINT_KEYS, 'secret']);
    this.log(
      '\nVerify each request with this secret (any Standard Webhooks library); `GET /v1/webhooks/ID` shows it again.',
    );
    return endpoint;
  }
}
