import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { ENDPOINT_KEYS, endpointArg, eventsText, webhookPath, type EndpointDoc } from '../../src/cli/webhooks.js';

export default class WebhooksUpdate extends SvcCommand<typeof WebhooksUpdate> {
  static override summary =
    'Change a webhook endpoint: URL, event types, description, on or off (PATCH /v1/webhooks/ID).';
  static override description =
    'Flags left out are unchanged. --no-enabled stops sending and fails the queued deliveries; --all-events subscribes to every type, including types added later.';
  static override examples = [
    '<%= config.bin %> webhooks update whk_4k2m9q7x1c4v6b0n5z8f --events stream.live,stream.ended',
    '<%= config.bin %> webhooks update whk_4k2m9q7x1c4v6b0n5z8f --no-enabled --json',
  ];
  static override args = { id: endpointArg };
  static override flags = {
    ...apiFlags,
    url: Flags.string({ summary: 'Receiver URL (https, up to 2000 characters).' }),
    events: Flags.string({
      summary: 'Comma-separated event types.',
      multiple: true,
      delimiter: ',',
      exclusive: ['all-events'],
    }),
    'all-events': Flags.boolean({ summary: 'Every event type, including types added later (events: null).' }),
    description: Flags.string({ summary: 'Label (up to 200 characters).', exclusive: ['clear-description'] }),
    'clear-description': Flags.boolean({ summary: 'Remove the label (description: null).' }),
    enabled: Flags.boolean({ summary: 'Send deliveries (--no-enabled stops them).', allowNo: true }),
  };

  async run(): Promise<EndpointDoc> {
    const f = this.flags;
    const body: Record<string, unknown> = {};
    if (f.url !== undefined) body.url = f.url;
    if (f.events?.length) body.events = f.events.map((e) => e.trim()).filter(Boolean);
    if (f['all-events']) body.events = null;
    if (f.description !== undefined) body.description = f.description;
    if (f['clear-description']) body.description = null;
    if (f.enabled !== undefined) body.enabled = f.enabled;
    // An empty body goes out as it is: the API's 400 says what may be changed.
    const endpoint = await this.apiClient(f).request<EndpointDoc>('PATCH', webhookPath(this.args.id), { body });
    this.printRecord({ ...endpoint, events: eventsText(endpoint) }, ENDPOINT_KEYS);
    return endpoint;
  }
}
