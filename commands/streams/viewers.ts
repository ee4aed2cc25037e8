import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { streamIdArg, streamPath } from '../../src/cli/streams.js';
import type { ViewerSeries } from '../../src/domains/streams/schemas.js';

interface MinuteRow {
  minute: string;
  watching?: number;
  waiting?: number;
  buffering_pct?: number;
  cdn_viewers?: number;
}

export default class StreamsViewers extends SvcCommand<typeof StreamsViewers> {
  static override summary =
    'Show the viewers of a stream per minute, from the hosted player and the CDN log, and watch time per country (GET /v1/streams/ID/viewers).';
  static override examples = [
    '<%= config.bin %> streams viewers str_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> streams viewers str_8f3k2m9q7x1c4v6b0n5z --json',
  ];
  static override args = { id: streamIdArg };
  static override flags = { ...apiFlags };

  async run(): Promise<ViewerSeries> {
    const series = await this.apiClient(this.flags).request<ViewerSeries>('GET', streamPath(this.args.id, 'viewers'));
    // The two sources count different minutes: one row per minute either has.
    const minutes = new Map<string, MinuteRow>();
    const row = (minute: string) => minutes.get(minute) ?? minutes.set(minute, { minute }).get(minute)!;
    for (const p of series.player)
      Object.assign(row(p.minute), { watching: p.watching, waiting: p.waiting, buffering_pct: p.buffering_pct });
    for (const c of series.cdn) row(c.minute).cdn_viewers = c.viewers;
    const rows = [...minutes.values()].sort((a, b) => a.minute.localeCompare(b.minute));
    this.printTable(
      rows,
      [
        { header: 'minute', get: (r) => r.minute },
        { header: 'watching', get: (r) => r.watching },
        { header: 'waiting', get: (r) => r.waiting },
        { header: 'buffering_pct', get: (r) => r.buffering_pct },
        { header: 'cdn_viewers', get: (r) => r.cdn_viewers },
      ],
      'no viewers yet',
    );
    if (series.countries.length) {
      this.log('');
      this.printTable(series.countries, [
        { header: 'country', get: (c) => c.country },
        { header: 'share', get: (c) => c.share },
        { header: 'watch_minutes', get: (c) => c.watch_minutes },
      ]);
    }
    return series;
  }
}
