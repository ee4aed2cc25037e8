/** Plain-text tables for people; scripts use --json. */
export interface Column<R> {
  header: string;
  get: (row: R) => unknown;
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function renderTable<R>(rows: R[], columns: Column<R>[]): string {
  const cells = rows.map((row) => columns.map((c) => formatValue(c.get(row))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => (r[i] as string).length)));
  const line = (values: string[]) => values.map((v, i) => (i === values.length - 1 ? v : v.padEnd(widths[i] as number))).join('  ').trimEnd();
  return [line(columns.map((c) => c.header.toUpperCase())), ...cells.map(line)].join('\n');
}

/** `key  value` lines, keys aligned; `keys` picks and orders them (default: all, in order). */
export function renderRecord(record: Record<string, unknown>, keys: string[] = Object.keys(record)): string {
  const present = keys.filter((k) => k in record);
  const width = Math.max(0, ...present.map((k) => k.length));
  return present.map((k) => `${k.padEnd(width)}  ${formatValue(record[k])}`).join('\n');
}
