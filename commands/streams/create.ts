import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { newId } from '../../src/core/ids.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import {
  METADATA_EXAMPLE,
  parseJsonObjectFlag,
  publishText,
  SECRET_KEYS,
  SECRET_WHAT,
  withPublishUrl,
  STREAM_KEYS,
  type StreamDoc,
} from '../../src/cli/streams.js';

export default class StreamsCreate extends SvcCommand<typeof StreamsCreate> {
  static override summary = 'Create a stream (POST /v1/streams); prints the stream key once.';
  static override description =
    "Prints OBS's Server and Stream Key ready to paste, the ffmpeg target, the WHIP URL and the browser publish page.";
  static override examples = [
    '<%= config.bin %> streams create --name "Town hall" --api-key svc_live_...',
    'SVC_API_KEY=svc_live_... <%= config.bin %> streams create --max-resolution 1080 --no-record --metadata \'{"event_id":"evt-42"}\' --json',
    '<%= config.bin %> streams create --name "Auction" --latency-mode low',
    '<%= config.bin %> streams create --name "Town hall, week 12" --channel chn_4v6b0n5z8f3k2m9q7x1c',
  ];
  static override flags = {
    ...apiFlags,
    name: Flags.string({ summary: 'Stream name (up to 100 characters).' }),
    profile: Flags.string({ summary: 'Transcoding profile.', options: ['abr_basic', 'passthrough'] }),
    'latency-mode': Flags.string({
      summary:
        'standard (4-second pieces) or low (1-second pieces, about 3 s behind; publish a keyframe every second).',
      options: ['standard', 'low'],
    }),
    'max-resolution': Flags.integer({ summary: 'Highest ingest resolution allowed.', options: ['480', '720', '1080'] }),
    record: Flags.boolean({ summary: 'Record the stream (the default; --no-record turns it off).', allowNo: true }),
    'retention-days': Flags.integer({ summary: 'Days to keep the recording.', min: 1, max: 3650 }),
    metadata: Flags.string({ summary: 'Client metadata, a JSON object (up to 2 KB).' }),
    channel: Flags.string({
      summary: "Create it in this channel (chn_...): it starts with the channel's player and chat settings.",
    }),
    'idempotency-key': Flags.string({
      summary:
        'Idempotency-Key header: a retry with the same key returns the first response (default: a new key per invocation).',
    }),
  };

  async run(): Promise<StreamDoc> {
    const f = this.flags;
    const body: Record<string, unknown> = {};
    if (f.name !== undefined) body.name = f.name;
    if (f.profile !== undefined) body.profile = f.profile;
    if (f['latency-mode'] !== undefined) body.latency_mode = f['latency-mode'];
    if (f['max-resolution'] !== undefined) body.max_resolution = f['max-resolution'];
    if (f.record !== undefined) body.record = f.record;
    if (f['retention-days'] !== undefined) body.recording_retention_days = f['retention-days'];
    if (f.metadata !== undefined)
      body.metadata = parseJsonObjectFlag('metadata', f.metadata, METADATA_EXAMPLE, { nullable: true });
    if (f.channel !== undefined) body.channel_id = f.channel;
    // One key per invocation, so that the client's retries after a 503 or a lost connection cannot create two streams.
    const headers = { 'idempotency-key': f['idempotency-key'] ?? newId('cli_', 24) };
    const stream = withPublishUrl(await this.apiClient(f).request<StreamDoc>('POST', 'v1/streams', { body, headers }));
    this.printRecord(
      stream,
      STREAM_KEYS.filter((k) => !SECRET_KEYS.includes(k)),
    );
    this.log('');
    this.log(publishText(stream));
    this.warnSecret(SECRET_WHAT);
    return stream;
  }
}
