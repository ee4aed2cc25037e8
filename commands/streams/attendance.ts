import { apiFlags } from '../../src/cli/api-client.js';
import { attendanceCsv, attendanceFlags, readAttendance } from '../../src/cli/attendance.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { ATTENDANCE_COLUMNS, type AttendanceListDoc, streamIdArg, streamPath } from '../../src/cli/streams.js';

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
    ...attendanceFlags,
  };

  async run(): Promise<AttendanceListDoc> {
    const f = this.flags;
    const list = await readAttendance(this.apiClient(f), streamPath(this.args.id, 'attendance'), f.limit ?? 1000);
    if (f.csv) process.stdout.write(attendanceCsv(list.data));
    else {
      this.printTable(list.data, ATTENDANCE_COLUMNS, 'no viewers with a token yet');
      if (list.data.length) this.log(`\n${list.data.length} viewers`);
    }
    return list;
  }
}
