import { Flags } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { OUTPUT_KEYS, outputsPath, streamKeyFlag, type OutputDoc } from '../../../src/cli/outputs.js';
import { streamIdArg } from '../../../src/cli/streams.js';
import { newId } from '../../../src/core/ids.js';

export default class StreamsOutputsCreate extends SvcCommand<typeof StreamsOutputsCreate> {
  static override summary = 'Add a restreaming output to a stream (POST /v1/streams/ID/outputs).';
  static override description =
    'While the stream is live its source is pushed as sent to the URL (rtmp://, rtmps:// or srt://, without the key). The key is required for rtmp and rtmps, optional for srt (sent as the SRT streamid); it is never shown again, not even now (masked). At most 5 outputs per stream; only while the stream is pending or live. Private hosts only with the operator setting allow_private_outputs.';
  static override examples = [
    'SVC_OUTPUT_STREAM_KEY=abcd-efgh-ijkl-mnop <%= config.bin %> streams outputs create str_8f3k2m9q7x1c4v6b0n5z --url rtmp://a.rtmp.youtube.com/live2 --name YouTube',
    '<%= config.bin %> streams outputs create str_8f3k2m9q7x1c4v6b0n5z --url srt://srt.example.com:9000 --no-enabled --json',
  ];
  static override args = { stream: streamIdArg };
  static override flags = {
    ...apiFlags,
    url: Flags.string({
      summary: 'Target without the key (rtmp://host/app, rtmps://host/app, srt://host:port).',
      required: true,
    }),
    'stream-key': streamKeyFlag('Stream key of the target (or SVC_OUTPUT_STREAM_KEY).'),
    name: Flags.string({ summary: 'Label (up to 100 characters).' }),
    enabled: Flags.boolean({ summary: 'Push while live (--no-enabled: saved but not pushed).', allowNo: true }),
    'idempotency-key': Flags.string({
      summary:
        'Idempotency-Key header: a retry with the same key returns the first response (default: a new key per invocation).',
    }),
  };

  async run(): Promise<OutputDoc> {
    const f = this.flags;
    const body: Record<string, unknown> = { url: f.url };
    if (f['stream-key'] !== undefined) body.stream_key = f['stream-key'];
    if (f.name !== undefined) body.name = f.name;
    if (f.enabled !== undefined) body.enabled = f.enabled;
    // One key per invocation, so that retries after a lost connection cannot add the output twice.
    const headers = { 'idempotency-key': f['idempotency-key'] ?? newId('cli_', 24) };
    const output = await this.apiClient(f).request<OutputDoc>('POST', outputsPath(this.args.stream), {
      body,
      headers,
    });
    this.printRecord(output, OUTPUT_KEYS);
    return output;
  }
}
