import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import {
  METADATA_EXAMPLE,
  parseJsonObjectFlag,
  STREAM_KEYS,
  streamIdArg,
  streamPath,
  type StreamDoc,
} from '../../src/cli/streams.js';

export default class StreamsUpdate extends SvcCommand<typeof StreamsUpdate> {
  static override summary =
    "Change a stream's name, metadata, player or chat settings or latency mode (PATCH /v1/streams/ID).";
  static override description =
    'Works in any status (--latency-mode only while pending). Flags left out are unchanged; --metadata replaces the object whole (null clears it); --player and --chat change only the fields they name.';
  static override examples = [
    '<%= config.bin %> streams update str_8f3k2m9q7x1c4v6b0n5z --name "Town hall (rescheduled)"',
    '<%= config.bin %> streams update str_8f3k2m9q7x1c4v6b0n5z --player \'{"require_viewer_token":true,"allowed_domains":["school.example"]}\' --chat \'{"slow_mode_seconds":10}\' --json',
  ];
  static override args = { id: streamIdArg };
  static override flags = {
    ...apiFlags,
    name: Flags.string({ summary: 'Stream name (up to 100 characters).', exclusive: ['clear-name'] }),
    'clear-name': Flags.boolean({ summary: 'Remove the name (name: null).' }),
    metadata: Flags.string({
      summary: `Client metadata, a JSON object (up to 2 KB) or null, e.g. '${METADATA_EXAMPLE}'.`,
    }),
    player: Flags.string({
      summary:
        'Player settings to change, a JSON object, e.g. \'{"enabled":false}\' (fields: show_name, require_viewer_token, enabled, allowed_domains, watch_minutes_limit, closed_at).',
    }),
    'latency-mode': Flags.string({
      summary: 'standard or low (only while the stream is pending).',
      options: ['standard', 'low'],
    }),
    chat: Flags.string({
      summary:
        'Chat settings to change, a JSON object, e.g. \'{"slow_mode_seconds":10}\' (fields: enabled, anonymous_posting, slow_mode_seconds, reaction_sampling).',
    }),
  };

  async run(): Promise<StreamDoc> {
    const f = this.flags;
    const body: Record<string, unknown> = {};
    if (f.name !== undefined) body.name = f.name;
    if (f['clear-name']) body.name = null;
    if (f.metadata !== undefined)
      body.metadata = parseJsonObjectFlag('metadata', f.metadata, METADATA_EXAMPLE, { nullable: true });
    if (f.player !== undefined) body.player = parseJsonObjectFlag('player', f.player, '{"enabled":false}');
    if (f['latency-mode'] !== undefined) body.latency_mode = f['latency-mode'];
    if (f.chat !== undefined) body.chat = parseJsonObjectFlag('chat', f.chat, '{"slow_mode_seconds":10}');
    // An empty body goes out as it is: the API's 400 says what may be changed.
    const stream = await this.apiClient(f).request<StreamDoc>('PATCH', streamPath(this.args.id), { body });
    this.printRecord(stream, [...STREAM_KEYS, 'player', 'chat']);
    return stream;
  }
}
