import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../core/clock.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { NowEstimate } from './counter.js';
import type { CountedFigures } from './mirror.js';
import * as q from './queries.js';

/** Another node's figures count while they are at most this old (it rewrites them every second). */
const FRESH_MS = 5000;
/** Rows of nodes gone this long are deleted (by any node). */
const DEAD_MS = 60_000;

/** One stream's figures as the other nodes counted them, added up. */
interface Others {
  now: NowEstimate | null;
  pendingWatched: number;
  largestAddress: number;
}

/**
 * Two nodes' `viewers.now` of one stream as one: their players are different players (the load
 * balancer sends a stream's beats to one node at a time), so the counts add up.
 */
export function addNow(a: NowEstimate | null, b: NowEstimate | null): NowEstimate | null {
  if (!a || !b) return a ?? b;
  const watching = a.watching + b.watching;
  const buffering = (a.buffering_pct * a.watching + b.buffering_pct * b.watching) / 100;
  return {
    watching,
    waiting: a.waiting + b.waiting,
    buffering_pct: watching > 0 ? Math.round((1000 * buffering) / watching) / 10 : 0,
    measured_at: a.measured_at > b.measured_at ? a.measured_at : b.measured_at,
    exact: a.exact && b.exact,
  };
}

/**
 * The viewer figures every API node keeps in memory (`viewers.now`, watched seconds not written
 * yet), shared through PostgreSQL (`viewer_node_figures`, UNLOGGED): each node writes its own
 * every second and reads the others', so a stream's figures asked of any node are the same.
 */
export class NodeFigures {
  /** This process's name on its rows: a restarted node is a new one (its old rows go stale). */
  private readonly node = randomUUID();
  private others = new Map<string, Others>();

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  /** Writes this node's figures (`mine`: its own counts only, never what it read) and reads the others'. */
  async exchange(mine: CountedFigures): Promise<void> {
    const now = this.clock.now();
    const ids = new Set([...Object.keys(mine.now), ...Object.keys(mine.pendingWatched)]);
    const rows = [...ids].sort().map((id) => ({
      stream_id: id,
      now: mine.now[id] ?? null,
      pending_watched_seconds: mine.pendingWatched[id] ?? 0,
      largest_address_seconds: mine.largestAddress?.[id] ?? 0,
    }));
    await q.writeNodeFigures(this.sql, this.node, rows, now, new Date(now.getTime() - DEAD_MS));
    const read = await q.otherNodesFigures(this.sql, this.node, new Date(now.getTime() - FRESH_MS));
    const others = new Map<string, Others>();
    for (const row of read) {
      const known = others.get(row.stream_id);
      others.set(row.stream_id, {
        now: addNow(known?.now ?? null, row.now),
        pendingWatched: (known?.pendingWatched ?? 0) + row.pending_watched_seconds,
        largestAddress: Math.max(known?.largestAddress ?? 0, row.largest_address_seconds),
      });
    }
    this.others = others;
  }

  /** Streams other nodes count. */
  streamIds(): string[] {
    return [...this.others.keys()];
  }

  now(streamId: string): NowEstimate | null {
    return this.others.get(streamId)?.now ?? null;
  }

  pendingWatched(streamId: string): number {
    return this.others.get(streamId)?.pendingWatched ?? 0;
  }

  largestAddress(streamId: string): number {
    return this.others.get(streamId)?.largestAddress ?? 0;
  }
}
