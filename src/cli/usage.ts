import { Flags } from '@oclif/core';
import { DEFAULT_USAGE_DAYS, type Usage } from '../domains/ledger/billing/schemas.js';
import type { Column } from './table.js';

export const daysFlag = Flags.integer({
  description: `UTC days, today included (1-90, default ${DEFAULT_USAGE_DAYS}).`,
  min: 1,
  max: 90,
  default: DEFAULT_USAGE_DAYS,
});

/** The summary lines of a Usage document; the days are a table of their own. */
export function usageSummary(usage: Usage): Record<string, unknown> {
  const summary: Record<string, unknown> = {
    ...usage,
    rates: Object.entries(usage.rates)
      .map(([k, v]) => `${k} ${v}`)
      .join(', '),
  };
  delete summary.days;
  return summary;
}

type Day = Usage['days'][number];

/** Days with anything in them: a quiet month is not thirty lines of zeros. */
export const usageDays = (usage: Usage): Day[] =>
  usage.days.filter((d) => d.total_usd !== '0.00' || d.credit_usd !== '0.00' || d.watch_minutes > 0);

/** One column per billed item, in the API's order. */
export function usageColumns(usage: Usage): Column<Day>[] {
  return [
    { header: 'date', get: (d) => d.date },
    ...(usage.days[0]?.items ?? []).map((item, i) => ({
      header: `${item.item}_usd`,
      get: (d: Day) => d.items[i]!.amount_usd,
    })),
    { header: 'total_usd', get: (d) => d.total_usd },
    { header: 'credit_usd', get: (d) => d.credit_usd },
    { header: 'balance_usd', get: (d) => d.balance_usd },
    { header: 'watch_minutes', get: (d) => String(d.watch_minutes) },
  ];
}
