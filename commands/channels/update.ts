import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import {
  CHANNEL_KEYS,
  channelBody,
  CHAT_FLAG_SUMMARY,
  PLAYER_FLAG_SUMMARY,
  channelArg,
  channelPath,
  type ChannelDoc,
} from '../../src/cli/channels.js';
import { METADATA_EXAMPLE } from '../../src/cli/streams.js';

export default class ChannelsUpdate extends SvcCommand<typeof ChannelsUpdate> {
  static override summary = "Change a channel's name, metadata, player or chat settings (PATCH /v1/channels/ID).";
  static override description =
    'Flags left out are unchanged; --metadata replaces the object whole (null clears it); --player and --chat change only the fields they name. Streams created from now on start with the new settings; existing streams keep theirs.';
  static override examples = [
    '<%= config.bin %> channels update chn_4v6b0n5z8f3k2m9q7x1c --name "Town hall"',
    '<%= config.bin %> channels update chn_4v6b0n5z8f3k2m9q7x1c --chat \'{"slow_mode_seconds":10}\' --json',
  ];
  static override args = { id: channelArg };
  static override flags = {
    ...apiFlags,
    name: Flags.string({ summary: 'Channel name (up to 100 characters).', exclusive: ['clear-name'] }),
    'clear-name': Flags.boolean({ summary: 'Remove the name (name: null).' }),
    metadata: Flags.string({
      summary: `Client metadata, a JSON object (up to 2 KB) or null, e.g. '${METADATA_EXAMPLE}'.`,
    }),
    player: Flags.string({ summary: PLAYER_FLAG_SUMMARY }),
    chat: Flags.string({ summary: CHAT_FLAG_SUMMARY }),
  };

  async run(): Promise<ChannelDoc> {
    const f = this.flags;
    const body = channelBody(f);
    // An empty body goes out as it is: the API's 400 says what may be changed.
    const channel = await this.apiClient(f).request<ChannelDoc>('PATCH', channelPath(this.args.id), { body });
    this.printRecord(channel, CHANNEL_KEYS);
    return channel;
  }
}
