import type { Config } from '../config/config.js';
import type { Clock } from '../core/clock.js';
import { watchMinutesByDay } from '../domains/audience/viewers/queries.js';
import { BillingService } from '../domains/ledger/billing/service.js';
import type { Sql } from '../platform/db/connect.js';

/**
 * Money: stateless, so the live pipeline, the API and the operator's commands each build their own.
 * A module of its own so that `svc accounts usage` gets it without loading the rest of the root.
 */
export function buildBilling(f: { sql: Sql; clock: Clock; config: Config }): BillingService {
  return new BillingService({
    sql: f.sql,
    clock: f.clock,
    config: f.config,
    watchMinutesByDay,
  });
}
