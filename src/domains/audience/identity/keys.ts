import type { Clock } from '../../../core/clock.js';
import type { Sql } from '../../../platform/db/connect.js';
import { findActiveViewerKey, type ViewerKeyRow } from '../../ledger/accounts/model.js';

/**
 * How long a node believes what it read of a viewer key. A deleted key is refused on every node
 * within this (the spec: "within a few seconds"), with no cross-node signal to lose; a crowd
 * opening sessions at the start of a class costs one query per key per this period.
 */
export const VIEWER_KEY_TTL_MS = 2000;
const MAX_CACHED = 10_000;

/** Viewer keys by id, each read at most once per TTL per node (unknown ids too). */
export class ViewerKeys {
  private readonly cache = new Map<string, { row: ViewerKeyRow | null; at: number }>();

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
  ) {}

  async find(id: string): Promise<ViewerKeyRow | null> {
    const now = this.clock.now().getTime();
    const known = this.cache.get(id);
    if (known && now - known.at < VIEWER_KEY_TTL_MS) return known.row;
    const row = await findActiveViewerKey(this.sql, id);
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(id, { row, at: now });
    return row;
  }
}
