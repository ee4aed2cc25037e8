import type { Sql } from '../../platform/db/connect.js';
import type { PublicRefusals } from '../cdn/public-refusals.js';
import { publicRefusedStreamIds } from './queries.js';
import type { PlayerSettings } from './schemas.js';

/**
 * The player refuses the public: switched off, members-only, or past `closed_at` when its settings
 * are written. A `closed_at` still ahead, or a spent `watch_minutes_limit`, closes the embed read
 * but not (yet) the shared address (docs/decisions.md, "Hardening: a closed player stops its shared address").
 */
export function refusesPublic(player: PlayerSettings, now: Date): boolean {
  return !player.enabled || player.require_viewer_token || (player.closed_at !== null && new Date(player.closed_at) <= now);
}

/** At start: nginx's refusals from the database, whatever was written (or lost) before. */
export async function reconcilePublicRefusals(sql: Sql, refusals: PublicRefusals, now: Date): Promise<number> {
  const ids = await publicRefusedStreamIds(sql, now);
  refusals.reconcile(ids);
  return ids.length;
}
