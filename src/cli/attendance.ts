import { Flags } from '@oclif/core';
import type { ApiClient } from './api-client.js';
import { toCsv } from './csv.js';
import { ATTENDANCE_FIELDS, type AttendanceDoc, type AttendanceListDoc } from './streams.js';

/** Every page of an attendance list (a stream's or a channel's) as one list, as if it were one page. */
export async function readAttendance(client: ApiClient, path: string, limit: number): Promise<AttendanceListDoc> {
  const data: AttendanceDoc[] = [];
  let after: string | undefined;
  let total = 0;
  for (;;) {
    const page = await client.request<AttendanceListDoc>('GET', path, { query: { limit, after } });
    data.push(...page.data);
    total = page.total;
    if (!page.has_more || page.next_after === null) break;
    after = page.next_after;
  }
  return { object: 'list', data, has_more: false, next_after: null, total };
}

/** RFC 4180 CSV of attendance items, the columns of ATTENDANCE_FIELDS. */
export const attendanceCsv = (data: AttendanceDoc[]): string =>
  toCsv(
    [...ATTENDANCE_FIELDS],
    data.map((a) => ATTENDANCE_FIELDS.map((field) => a[field])),
  );

/** `--csv` and `--limit` of the attendance commands. */
export const attendanceFlags = {
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
