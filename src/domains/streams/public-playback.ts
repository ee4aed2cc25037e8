import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { Sql } from '../../platform/db/connect.js';
import { isDatabaseUnavailable } from '../../platform/db/errors.js';
import type { MarkerFolder } from '../../platform/system/marker-folder.js';
import { lockPublicRefusals, publicPlayers, type PublicPlayerRow } from './queries.js';
import type { PlayerSettings } from './model.js';

/** How often every node rebuilds its refusals: the bound on a `closed_at` passing or watch minutes running out. */
export const REFUSALS_EVERY_MS = 5000;

/**
 * The player refuses the public by its settings alone: switched off, members-only, or past
 * `closed_at`. A spent `watch_minutes_limit` refuses it too (`refusedStreamIds`): that needs the
 * viewer counts (docs/decisions.md, "Hardening: a closed player stops its shared address").
 */
export function refusesPublic(player: PlayerSettings, now: Date): boolean {
  return (
    !player.enabled || player.require_viewer_token || (player.closed_at !== null && new Date(player.closed_at) <= now)
  );
}

/** What refusals need from viewer counting (the viewers domain is above streams). */
export interface RefusalViewers {
  /** The minutes that count towards `player.watch_minutes_limit` (the embed read's figure), for every stream asked about. */
  limitMinutesOf(streamIds: string[]): Promise<Map<string, number>>;
}

/** The players among `players` that refuse the public now: by their settings, or out of watch minutes. */
export async function refusedStreamIds(players: PublicPlayerRow[], viewers: RefusalViewers): Promise<string[]> {
  const limited = players.filter((p) => !p.refused && p.watch_minutes_limit !== null);
  const minutes = await viewers.limitMinutesOf(limited.map((p) => p.id));
  const spent = (p: PublicPlayerRow) =>
    p.watch_minutes_limit !== null && (minutes.get(p.id) ?? 0) >= p.watch_minutes_limit;
  return players.filter((p) => p.refused || spent(p)).map((p) => p.id);
}

export interface RefusalKeeperDeps {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  refusals: MarkerFolder;
  viewers: RefusalViewers;
  /** Tests shorten it. */
  everyMs?: number;
}

/**
 * Keeps this node's refusal files equal to the database: at start, then every few seconds, so that
 * a `closed_at` that passes, watch minutes that run out and patches served by other nodes reach
 * this node's nginx within one period. Every node runs it for its own disk (never under a job lease).
 */
export class PublicRefusalKeeper {
  private readonly log: Logger;
  /** The last rebuild failed for want of the database: logged once per outage. */
  private waiting = false;

  constructor(private readonly deps: RefusalKeeperDeps) {
    this.log = deps.logger.child({ domain: 'streams' });
  }

  /** One rebuild; returns how many streams are refused. */
  async reconcile(): Promise<number> {
    return this.deps.sql.begin(async (tx) => {
      // A patch's file write is ordered against the whole rebuild: this read never undoes a newer write.
      await lockPublicRefusals(tx, 'rebuild');
      const ids = await refusedStreamIds(await publicPlayers(tx, this.deps.clock.now()), this.deps.viewers);
      this.deps.refusals.reconcile(ids);
      return ids.length;
    });
  }

  /** Rebuilds on its period on this node (a tick is skipped while one runs). Returns its stop. */
  start(): () => Promise<void> {
    let running: Promise<void> | null = null;
    const tick = () => {
      running ??= this.reconcile()
        .then(() => {
          if (this.waiting) this.log.info('public refusals rebuilt again');
          this.waiting = false;
        })
        .catch((err: unknown) => this.failed(err))
        .finally(() => (running = null));
    };
    const timer = setInterval(tick, this.deps.everyMs ?? REFUSALS_EVERY_MS);
    return async () => {
      clearInterval(timer);
      await running;
    };
  }

  private failed(err: unknown): void {
    if (!isDatabaseUnavailable(err))
      return this.log.error({ err }, 'public refusals not rebuilt; tried again at the next tick');
    if (!this.waiting) this.log.warn({ err }, 'public refusals wait for the database');
    this.waiting = true;
  }
}
