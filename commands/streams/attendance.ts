import { Flags } from '@oclif/core';
import { apiFlags } from '../../src/cli/api-client.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { toCsv } from '../../src/cli/csv.js';
import {
  ATTENDANCE_COLUMNS,
  ATTENDANCE_FIELDS,
  type AttendanceDoc,
  type AttendanceListDoc,
  streamIdArg,
  streamPath,
} from '../../src/cli/streams.js';

export default class StreamsAttendance extends SvcCommand<typeof StreamsAttendance> {
  static override summary =
    'List the viewers who came with a viewer token, every page (GET /v1/streams/ID/attendance).';
  static override description =
    'Ordered by viewer id, byte by byte. --json prints one list with every viewer; --csv prints RFC 4180 CSV for spreadsheets.';
  static override examples = [
    '<%= config.bin %> streams attendance str_8f3k2m9q7x1c4v6b0n5z',
    '<%= config.bin %> streams attendance str_8f3k2m9q7x1c4v6b0n5z --csv > attendance.csv',
  ];
  static override args = { id: streamIdArg };
  static override flags = {
    ...apiFlags,
    csv: Flags.boolean({
      summary: 'Print CSV: viewer_id,name,watch_seconds,first_seen_at,last_seen_at.',
      exclusive: ['json'],
    }),
    limit: Flags.integer({
      summary: 'Viewers per request (1-1000, default 1000); every page is read either way.',
      min: 1,
      max: 1000,
    }),
  };

  async run(): Promise<AttendanceListDoc> {
    const f = this.flags;
    const client = this.apiClient(f);
    const path = streamPath(this.args.id, 'attendance');
    const data: AttendanceDoc[] = [];
    let after: string | undefined;
    let total = 0;
    for (;;) {
      const page = await client.request<AttendanceListDoc>('GET', path, { query: { limit: f.limit ?? 1000, after } });
      data.push(...page.data);
      total = page.total;
      if (!page.has_more || page.next_after === null) break;
      after = page.next_after;
    }
    // One list as if it were one page: scripts read it like the API's.
    const list: AttendanceListDoc = { object: 'list', data, has_more: false, next_after: null, total };
    if (f.csv) {
      process.stdout.write(
        toCsv(
          [...ATTENDANCE_FIELDS],
          data.map((a) => ATTENDANCE_FIELDS.map((field) => a[field])),
        ),
      );
    } else {
      this.printTable(data, ATTENDANCE_COLUMNS, 'no viewers with a token yet');
      if (data.length) this.log(`\n${data.length} viewers`);
    }
    return list;
  }
}
