/** Plain-text tables for people; scripts use --json. */
import Table from 'cli-table3';

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

/** No rules or colours (on a terminal or not), two spaces between columns: text to read, grep and copy ids from. */
const PLAIN: Table.TableConstructorOptions = {
  chars: {
    top: '',
    'top-mid': '',
    'top-left': '',
    'top-right': '',
    bottom: '',
    'bottom-mid': '',
    'bottom-left': '',
    'bottom-right': '',
    left: '',
    'left-mid': '',
    mid: '',
    'mid-mid': '',
    right: '',
    'right-mid': '',
    middle: '  ',
  },
  style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
};

/**
 * Columns as wide as their widest cell, measured in terminal columns (names may hold CJK or
 * emoji), never truncated: an id cut short cannot be copied.
 */
export function renderTable<R>(rows: R[], columns: Column<R>[]): string {
  const table = new Table({ ...PLAIN, head: columns.map((c) => c.header.toUpperCase()) });
  table.push(...rows.map((row) => columns.map((c) => formatValue(c.get(row)))));
  // cli-table3 pads the last column as well; a line ends where its text does.
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** `key  value` lines, keys aligned; `keys` picks and orders them (default: all, in order). */
export function renderRecord(record: Record<string, unknown>, keys: string[] = Object.keys(record)): string {
  const present = keys.filter((k) => k in record);
  const width = Math.max(0, ...present.map((k) => k.length));
  return present.map((k) => `${k.padEnd(width)}  ${formatValue(record[k])}`).join('\n');
}
