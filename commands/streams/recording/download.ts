import { Flags } from '@oclif/core';
import { apiFlags } from '../../../src/cli/api-client.js';
import { SvcCommand } from '../../../src/cli/base-command.js';
import { streamIdArg, streamPath } from '../../../src/cli/streams.js';
import type { RecordingDownload } from '../../../src/domains/engine/recordings/schemas.js';

export default class StreamsRecordingDownload extends SvcCommand<typeof StreamsRecordingDownload> {
  static override summary = "Sign a download URL of a stream's MP4 recording (POST /v1/streams/ID/recording/download).";
  static override description =
    'Fetch it with any HTTP client (range requests work). Until the recording is ready the API answers recording_not_ready with its status.';
  static override examples = [
    '<%= config.bin %> streams recording download str_8f3k2m9q7x1c4v6b0n5z',
    'curl -o talk.mp4 "$(<%= config.bin %> streams recording download str_8f3k2m9q7x1c4v6b0n5z --json | jq -r .url)"',
  ];
  static override args = { id: streamIdArg };
  static override flags = {
    ...apiFlags,
    'expires-in': Flags.integer({
      summary: 'Seconds the link works (60 to 604800, default 3600).',
      min: 60,
      max: 604_800,
    }),
  };

  async run(): Promise<RecordingDownload> {
    const f = this.flags;
    const body = f['expires-in'] === undefined ? {} : { expires_in: f['expires-in'] };
    const download = await this.apiClient(f).request<RecordingDownload>(
      'POST',
      streamPath(this.args.id, 'recording', 'download'),
      { body, readOnly: true },
    );
    this.printRecord(download, ['url', 'bytes', 'expires_at']);
    this.log(`\ncurl -o ${download.stream_id}.mp4 "${download.url}"`);
    return download;
  }
}
