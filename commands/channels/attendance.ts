import { apiFlags } from '../../src/cli/api-client.js';
import { attendanceCsv, attendanceFlags, readAttendance } from '../../src/cli/attendance.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { channelArg } from '../../src/cli/chat.js';
import { ATTENDANCE_COLUMNS, type AttendanceListDoc } from '../../src/cli/streams.js';

export default class ChannelsAttendance extends SvcCommand<typeof ChannelsAttendance> {
  static override summary =
    "List the viewers who came with a viewer token to a channel's streams, every page (GET /v1/channels/ID/attendance).";
  static override description =
    "One line per viewer: watch_seconds summed over the channel's streams, first and last seen across them. Ordered by viewer id, byte by byte. --json prints one list with every viewer; --csv prints RFC 4180 CSV for spreadsheets.";
  static override examples = [
    '<%= config.bin %> channels attendance chn_2v6b0n5z8f3k2m9q7x1c',
    '<%= config.bin %> channels attendance chn_2v6b0n5z8f3k2m9q7x1c --csv > attendance.csv',
  ];
  static override args = { id: channelArg };
  static override flags = {
    ...apiFlags,
    ...attendanceFlags,
  };

  async run(): Promise<AttendanceListDoc> {
    const f = this.flags;
    const path = ['v1/channels', encodeURIComponent(this.args.id), 'attendance'].join('/');
    const list = await readAttendance(this.apiClient(f), path, f.limit ?? 1000);
    if (f.csv) process.stdout.write(attendanceCsv(list.data));
    else {
      this.printTable(list.data, ATTENDANCE_COLUMNS, 'no viewers with a token yet');
      if (list.data.length) this.log(`\n${list.data.length} viewers`);
    }
    return list;
  }
}
