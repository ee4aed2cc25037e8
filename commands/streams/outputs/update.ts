import { Flags } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { OUTPUT_KEYS, outputArg, outputsPath, streamKeyFlag, type OutputDoc } from '../../../src/cli/outputs.js';
import { streamIdArg } from '../../../src/cli/streams.js';

export default class StreamsOutputsUpdate extends SvcCommand<typeof StreamsOutputsUpdate> {
  static override summary =
    'Change a restreaming output: URL, key, name, on or off (PATCH /v1/streams/ID/outputs/OUTPUT_ID).';
  static override description =
    'Flags left out are unchanged. A new URL or key sets the output back to idle and the push reconnects with it; --no-enabled stops pushing. Only while the stream is pending or live.';
  static override examples = [
    '<%= config.bin %> streams outputs update str_8f3k2m9q7x1c4v6b0n5z out_6b0n5z8f3k2m9q7x1c4v --no-enabled',
    'SVC_OUTPUT_STREAM_KEY=new-key-1234 <%= config.bin %> streams outputs update str_8f3k2m9q7x1c4v6b0n5z out_6b0n5z8f3k2m9q7x1c4v --json',
  ];
  static override args = { stream: streamIdArg, output: outputArg };
  static override flags = {
    ...apiFlags,
    url: Flags.string({ summary: 'Target without the key (rtmp://host/app, rtmps://host/app, srt://host:port).' }),
    'stream-key': streamKeyFlag('New stream key (or SVC_OUTPUT_STREAM_KEY).'),
    'clear-stream-key': Flags.boolean({ summary: 'Remove the key (srt outputs only).', exclusive: ['stream-key'] }),
    name: Flags.string({ summary: 'Label (up to 100 characters).', exclusive: ['clear-name'] }),
    'clear-name': Flags.boolean({ summary: 'Remove the label (name: null).' }),
    enabled: Flags.boolean({ summary: 'Push while live (--no-enabled stops it).', allowNo: true }),
  };

  async run(): Promise<OutputDoc> {
    const f = this.flags;
    const { stream, output } = this.args;
    const body: Record<string, unknown> = {};
    if (f.url !== undefined) body.url = f.url;
    if (f['stream-key'] !== undefined) body.stream_key = f['stream-key'];
    if (f['clear-stream-key']) body.stream_key = null;
    if (f.name !== undefined) body.name = f.name;
    if (f['clear-name']) body.name = null;
    if (f.enabled !== undefined) body.enabled = f.enabled;
    // An empty body goes out as it is: the API's 400 says what may be changed.
    const doc = await this.apiClient(f).request<OutputDoc>('PATCH', outputsPath(stream, output), { body });
    this.printRecord(doc, OUTPUT_KEYS);
    return doc;
  }
}
