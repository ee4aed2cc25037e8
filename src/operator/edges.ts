import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { systemClock } from '../core/clock.js';
import { edgesService, type EdgesService } from '../domains/ledger/edges/service.js';
import { openDatabase } from './database.js';

/** The origin's edges, for `svc edges ...` on the origin machine (the database directly, like accounts). */
export async function openEdges(
  config: Config,
  secrets: Secrets,
): Promise<{ edges: EdgesService; close: () => Promise<void> }> {
  const sql = await openDatabase(config, secrets);
  return { edges: edgesService(config, secrets, sql, systemClock), close: () => sql.end({ timeout: 5 }) };
}
