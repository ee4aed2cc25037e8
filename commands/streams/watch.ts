import { setTimeout as sleep } from 'node:timers/promises';
import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { streamIdArg, streamPath, watchFrame } from '../../src/cli/streams.js';
import { FINISHED } from '../../src/domains/streams/model.js';
import type { Stream } from '../../src/domains/streams/schemas.js';

export default class StreamsWatch extends SvcCommand<typeof StreamsWatch> {
  static override summary =
    'Watch one stream live in the terminal: status, ingest, viewers now, warnings (polls GET /v1/streams/ID).';
  static override description =
    'Refreshes every --interval seconds until the stream is ended, expired or cancelled (exit 0) or Ctrl-C. With --json it prints one JSON line per refresh (NDJSON: the API\'s Stream), and an error as one {"error": ...} line.';
  static override examples = [
    '<%= config.bin %> streams watch str_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> streams watch str_8f3k2m9q7x1c4v6b0n5z --json | jq -c .ingest',
  ];
  static override args = { id: streamIdArg };
  static override flags = {
    ...apiFlags,
    interval: Flags.integer({ summary: 'Seconds between refreshes (1-60, default 2).', min: 1, max: 60, default: 2 }),
  };

  /** NDJSON: every document on one line, the error at the end too. */
  public override logJson(json: unknown): void {
    process.stdout.write(`${JSON.stringify(json)}\n`);
  }

  async run(): Promise<void> {
    const client = this.apiClient(this.flags);
    // A terminal gets one screen redrawn in place; a pipe or file gets every frame in turn.
    const redraw = process.stdout.isTTY && !this.jsonEnabled();
    for (;;) {
      const stream = await client.request<Stream>('GET', streamPath(this.args.id));
      if (this.jsonEnabled()) this.logJson(stream);
      else this.log(`${redraw ? '\x1b[H\x1b[2J' : ''}${watchFrame(stream)}\n`);
      if (FINISHED.includes(stream.status)) return;
      await sleep(this.flags.interval * 1000);
    }
  }
}
