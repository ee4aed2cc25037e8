/**
 * RFC 4180 CSV: CRLF between records, a field quoted when it holds a comma, a quote, CR or LF
 * (quotes doubled inside). Null and undefined are empty fields.
 *
 * Text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a
 * carriage return: OWASP's CSV injection rule) gets a leading `'`, so a viewer who names
 * themselves `=HYPERLINK(...)` stays text when the export is opened. Numbers are written as they
 * are: `-5` as a number is data, not a formula.
 */
export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',') + '\r\n').join('');
}

const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
