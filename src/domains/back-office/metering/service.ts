import type { Config } from '../../../config/config.js';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { compareUsd, formatUsd } from '../../../core/money.js';
import { addSeconds, iso } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import { chargeClosedPeriods, type ChargeRun } from '../../ledger/billing/charging.js';
import { accountMoney, type AccountMoney } from '../../ledger/billing/queries.js';
import type { BalanceEventData } from '../../ledger/billing/schemas.js';
import { zeroBalanceDeadline } from '../../ledger/billing/service.js';
import { appendEvent, type EventType } from '../../ledger/events/outbox.js';
import { lockStreamById } from '../../streams/model.js';
import type { LiveLink } from '../../streams/service.js';
import * as transitions from '../../streams/transitions.js';
import * as q from './queries.js';

export interface MeteringDeps {
  sql: Sql;
  clock: Clock;
  config: Config;
  logger: Logger;
  live: LiveLink;
  /**
   * Up to when this node's live tick has checked the open publish sessions against nginx (null:
   * not yet, or no ingest here); omitted: open sessions are taken as true up to now.
   */
  publishersCheckedUntil?: () => Date | null;
}

type Warning = 'low' | 'depleted';
const RANK: Record<Warning | 'none', number> = { none: 0, low: 1, depleted: 2 };

/** Prepaid accounts are warned about credit, postpaid ones about their balance (docs/decisions.md, Billing). */
const WARNING_EVENTS: Record<AccountMoney['billing_mode'], Record<Warning, EventType>> = {
  prepaid: { low: 'credit.low', depleted: 'credit.depleted' },
  postpaid: { low: 'balance.low', depleted: 'balance.depleted' },
};

/**
 * The metering job: charges every closed period, then applies the credit rules to every account
 * whose money may have moved: prepaid live streams end `insufficient_credit` once nothing is
 * available, warnings go out once per crossing, and a prepaid balance at or below zero puts its
 * recordings on the zero-balance deadline. Safe to repeat and to kill anywhere.
 */
export class MeteringService {
  private readonly log: Logger;

  constructor(private readonly deps: MeteringDeps) {
    this.log = deps.logger.child({ domain: 'metering' });
  }

  async run(): Promise<ChargeRun & { accounts: number }> {
    const { sql, clock, config } = this.deps;
    const now = clock.now();
    const charged = await chargeClosedPeriods(sql, config.billing.rates, now, this.deps.publishersCheckedUntil?.());
    // Two periods back: a run that failed half-way leaves nothing unchecked.
    const ids = await q.accountsToCheck(sql, addSeconds(now, -2 * config.billing.meter_seconds - 60));
    const accounts = await accountMoney(sql, ids, config.billing.rates, now);
    for (const account of accounts) await this.applyRules(account, now);
    return { ...charged, accounts: accounts.length };
  }

  private async applyRules(account: AccountMoney, now: Date): Promise<void> {
    const { sql, config } = this.deps;
    const prepaid = account.billing_mode === 'prepaid';
    if (prepaid && compareUsd(account.available_usd, '0') <= 0) await this.endLiveStreams(account.id, now);

    const level: Warning | 'none' =
      compareUsd(account.available_usd, '0') <= 0
        ? 'depleted'
        : compareUsd(account.available_usd, config.billing.low_credit_usd) <= 0
          ? 'low'
          : 'none';
    const warned = account.balance_warning ?? 'none';
    const depleted = compareUsd(account.balance_usd, '0') <= 0;
    const depletedAt = depleted ? (account.balance_depleted_at ?? now) : null;
    if (level === warned && iso(depletedAt) === iso(account.balance_depleted_at)) {
      if (prepaid && depletedAt) await q.applyZeroBalanceDeadline(sql, account.id, this.deadline(depletedAt));
      return;
    }
    await sql.begin(async (tx) => {
      const moved = await q.moveBalanceState(
        tx,
        account.id,
        { balance_warning: account.balance_warning, balance_depleted_at: account.balance_depleted_at },
        { balance_warning: level === 'none' ? null : level, balance_depleted_at: depletedAt },
      );
      if (!moved) return;
      if (RANK[level] > RANK[warned] && level !== 'none') {
        await appendEvent(tx, {
          type: WARNING_EVENTS[account.billing_mode][level],
          accountId: account.id,
          streamId: null,
          at: now,
          data: {
            object: 'balance',
            account_id: account.id,
            billing_mode: account.billing_mode,
            balance_usd: formatUsd(account.balance_usd),
            available_usd: formatUsd(account.available_usd),
            low_credit_usd: formatUsd(config.billing.low_credit_usd),
            balance_depleted_at: iso(depletedAt),
          } satisfies BalanceEventData,
        });
        this.log.info(
          { account_id: account.id, warning: level, available_usd: account.available_usd },
          'balance warning',
        );
      }
      if (prepaid) await q.applyZeroBalanceDeadline(tx, account.id, depletedAt && this.deadline(depletedAt));
    });
  }

  private deadline(depletedAt: Date): Date {
    return zeroBalanceDeadline(this.deps.config.billing, depletedAt);
  }

  /** Each live stream in its own transaction under its row lock; the publisher is dropped after. */
  private async endLiveStreams(accountId: string, now: Date): Promise<void> {
    const { sql } = this.deps;
    const live = await sql<
      { id: string }[]
    >`select id from streams where account_id = ${accountId} and status = 'live'`;
    for (const { id } of live) {
      const ended = await sql.begin(async (tx) => {
        const row = await lockStreamById(tx, id);
        if (!row || row.status !== 'live') return false;
        await transitions.end(tx, row, 'insufficient_credit', now);
        return true;
      });
      if (!ended) continue;
      this.log.warn(
        { stream_id: id, account_id: accountId, end_reason: 'insufficient_credit' },
        'stream ended: no credit available',
      );
      await this.deps.live.ended(id);
    }
  }
}
