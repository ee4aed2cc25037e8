import type { Sql } from './connect.js';

/** How often a process learns the keys other processes found over the limit. */
const LEARN_MS = 1000;
/** Ended windows are deleted every this many learns (any process may; all do, harmlessly). */
const PRUNE_EVERY = 30;

export interface SharedWindowsOptions {
  sql: Sql;
  /** The limit's name: its rows in `rate_windows`. */
  scope: string;
  windowSeconds: number;
  /** Hits a key may make in its window; the next is refused. */
  limit: number;
  now: () => number;
}

/**
 * Fixed windows counted in PostgreSQL (`rate_windows`, UNLOGGED), so that every API node and
 * worker process counts one total: a key's window starts with its first hit anywhere and the
 * hit past the limit is refused wherever it lands. Refusing a key costs no query: each process
 * keeps the keys it knows to be over (its own hits tell it at once, the others' within a second,
 * read by the first check after that second). Keys are the caller's keyed hashes, never addresses.
 */
export class SharedWindows {
  /** Keys over the limit → when their window ends (ms). */
  private readonly over = new Map<string, number>();
  private learnedAt = -Infinity;
  private learns = 0;
  private learning = false;

  constructor(private readonly opts: SharedWindowsOptions) {}

  /** Whole seconds until the key's window ends while it is known to be over its limit, else null. No query. */
  blocked(key: string): number | null {
    const now = this.opts.now();
    if (now - this.learnedAt >= LEARN_MS) this.learn(now);
    const end = this.over.get(key);
    if (end === undefined) return null;
    if (end <= now) {
      this.over.delete(key);
      return null;
    }
    return Math.max(1, Math.ceil((end - now) / 1000));
  }

  /** Counts one hit of the key; the seconds to wait when this hit is past the limit (refused), else null. */
  async hit(key: string): Promise<number | null> {
    const { sql, scope, windowSeconds, limit } = this.opts;
    const now = new Date(this.opts.now());
    const ended = new Date(now.getTime() - windowSeconds * 1000);
    // Both SET expressions read the row as it was: a window that ended starts again with this hit.
    const [row] = await sql<{ started_at: Date; hits: number }[]>`
      insert into rate_windows as w (scope, key, started_at, hits) values (${scope}, ${key}, ${now}, 1)
      on conflict (scope, key) do update set
        started_at = case when w.started_at <= ${ended} then ${now} else w.started_at end,
        hits = case when w.started_at <= ${ended} then 1 else w.hits + 1 end
      returning started_at, hits`;
    if (!row || row.hits < limit) return null;
    const end = row.started_at.getTime() + windowSeconds * 1000;
    this.over.set(key, end);
    return row.hits > limit ? Math.max(1, Math.ceil((end - now.getTime()) / 1000)) : null;
  }

  /** Reads the keys over the limit (other processes' hits), now and then deletes ended windows. */
  private learn(now: number): void {
    this.learnedAt = now;
    if (this.learning) return;
    this.learning = true;
    const { sql, scope, windowSeconds, limit } = this.opts;
    const ended = new Date(now - windowSeconds * 1000);
    const prune = ++this.learns % PRUNE_EVERY === 0;
    void (async () => {
      const rows = await sql<{ key: string; started_at: Date }[]>`
        select key, started_at from rate_windows
        where scope = ${scope} and hits >= ${limit} and started_at > ${ended}`;
      for (const [key, end] of this.over) if (end <= now) this.over.delete(key);
      for (const row of rows) this.over.set(row.key, row.started_at.getTime() + windowSeconds * 1000);
      if (prune) await sql`delete from rate_windows where scope = ${scope} and started_at <= ${ended}`;
    })()
      // The database away: what this process knows stands, and the next second tries again.
      .catch(() => undefined)
      .finally(() => (this.learning = false));
  }
}
