/**
 * RFC 4180 CSV: CRLF between records, a field quoted when it holds a comma, a quote, CR or LF
 * (quotes doubled inside). Null and undefined are empty fields. Nothing is escaped for
 * spreadsheets: the file holds the data exactly as the API gave it.
 */
export function toCsv(header: string[], rows: unknown[][]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',') + '\r\n').join('');
}

function csvField(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
