import type { Db } from '../../../platform/db/connect.js';

/** Accounts whose credit may have moved: something live, charged lately, or a warning or depletion to lift. */
export async function accountsToCheck(db: Db, chargedSince: Date): Promise<string[]> {
  const rows = await db<{ id: string }[]>`
    select id from accounts where balance_warning is not null or balance_depleted_at is not null or credit_usd <= charged_usd
    union select account_id from streams where status = 'live'
    union select distinct account_id from charges where charged_at >= ${chargedSince}
    union select distinct account_id from credits where created_at >= ${chargedSince}`;
  return rows.map((r) => r.id);
}

type BalanceState = { balance_warning: 'low' | 'depleted' | null; balance_depleted_at: Date | null };

/**
 * Moves the account from the state the run read to the new one; false when another run moved it
 * first (runs may overlap when one outlives its lease), so only one of them sends the warning.
 */
export async function moveBalanceState(
  db: Db,
  accountId: string,
  from: BalanceState,
  to: BalanceState,
): Promise<boolean> {
  const result = await db`
    update accounts set ${db(to)}
    where id = ${accountId} and balance_warning is not distinct from ${from.balance_warning}
      and balance_depleted_at is not distinct from ${from.balance_depleted_at}::timestamptz`;
  return result.count === 1;
}

/**
 * Ready recordings of an account get the earlier of their retention date and the zero-balance
 * deadline (`zero_balance` when that one is earlier); with `deadline` null, the retention date again.
 */
export async function applyZeroBalanceDeadline(db: Db, accountId: string, deadline: Date | null): Promise<number> {
  const result = await db`
    update streams s set recording_delete_at = d.delete_at, recording_delete_reason = d.reason
    from (
      select id,
        case when ${deadline}::timestamptz is not null and (r.retention is null or ${deadline}::timestamptz < r.retention)
          then ${deadline}::timestamptz else r.retention end as delete_at,
        case when ${deadline}::timestamptz is not null and (r.retention is null or ${deadline}::timestamptz < r.retention)
          then 'zero_balance' when r.retention is null then null else 'retention' end as reason
      -- Days of 24 h, as recordingReady sets them: a calendar day would follow the session's daylight saving.
      from streams, lateral (select recording_ready_at + make_interval(hours => recording_retention_days * 24) as retention) r
      where account_id = ${accountId} and recording_status = 'ready'
    ) d
    where s.id = d.id and (s.recording_delete_at is distinct from d.delete_at or s.recording_delete_reason is distinct from d.reason)`;
  return result.count;
}
