import type { Account } from '../domains/ledger/accounts/model.js';
import { formatUsd, subtractUsd } from '../core/money.js';
import type { Column } from './table.js';

/** An account as the CLI shows it: id first, money as a decimal string. */
export function presentAccount(a: Account) {
  return {
    id: a.id,
    object: 'account' as const,
    name: a.name,
    state: a.state,
    trusted: a.trusted,
    billing_mode: a.billing_mode,
    credit_usd: formatUsd(a.credit_usd),
    charged_usd: formatUsd(a.charged_usd),
    balance_usd: formatUsd(subtractUsd(a.credit_usd, a.charged_usd)),
    recording_retention_days: a.recording_retention_days,
    created_at: a.created_at.toISOString(),
  };
}
export type PresentedAccount = ReturnType<typeof presentAccount>;

export const ACCOUNT_COLUMNS: Column<PresentedAccount>[] = [
  { header: 'id', get: (a) => a.id },
  { header: 'name', get: (a) => a.name },
  { header: 'state', get: (a) => a.state },
  { header: 'trusted', get: (a) => (a.trusted ? 'yes' : 'no') },
  { header: 'billing', get: (a) => a.billing_mode },
  { header: 'credit_usd', get: (a) => a.credit_usd },
  { header: 'balance_usd', get: (a) => a.balance_usd },
  { header: 'created_at', get: (a) => a.created_at },
];
