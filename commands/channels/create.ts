import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { newId } from '../../src/core/ids.js';
import {
  CHANNEL_KEYS,
  CHAT_FLAG_SUMMARY,
  PLAYER_FLAG_SUMMARY,
  channelBody,
  type ChannelDoc,
} from '../../src/cli/channels.js';
import { METADATA_EXAMPLE } from '../../src/cli/streams.js';

export default class ChannelsCreate extends SvcCommand<typeof ChannelsCreate> {
  static override summary = 'Create a channel (POST /v1/channels): a recurring show whose streams share settings.';
  static override description =
    "Streams created with `svc streams create --channel ID` start with the channel's player and chat settings. Settings left out take the streams' defaults.";
  static override examples = [
    '<%= config.bin %> channels create --name "Friday town hall"',
    '<%= config.bin %> channels create --name "Members hour" --player \'{"require_viewer_token":true}\' --chat \'{"slow_mode_seconds":10}\' --json',
  ];
  static override flags = {
    ...apiFlags,
    name: Flags.string({ summary: 'Channel name (up to 100 characters).' }),
    metadata: Flags.string({ summary: `Client metadata, a JSON object (up to 2 KB), e.g. '${METADATA_EXAMPLE}'.` }),
    player: Flags.string({ summary: PLAYER_FLAG_SUMMARY }),
    chat: Flags.string({ summary: CHAT_FLAG_SUMMARY }),
    'idempotency-key': Flags.string({
      summary:
        'Idempotency-Key header: a retry with the same key returns the first response (default: a new key per invocation).',
    }),
  };

  async run(): Promise<ChannelDoc> {
    const f = this.flags;
    const body = channelBody(f);
    // One key per invocation, so that the client's retries after a 503 or a lost connection cannot create two channels.
    const headers = { 'idempotency-key': f['idempotency-key'] ?? newId('cli_', 24) };
    const channel = await this.apiClient(f).request<ChannelDoc>('POST', 'v1/channels', { body, headers });
    this.printRecord(channel, CHANNEL_KEYS);
    return channel;
  }
}
