import { edgeUp } from './service.js';
import type { EdgeRow } from './queries.js';

/** An edge as the operator sees it (`svc edges list --json`, `svc status`, the dashboard): stable field names. */
export interface PresentedEdge {
  id: string;
  object: 'edge';
  name: string;
  kind: 'edge' | 'cdn';
  /** `joining` (a token is out), `up`, `down`; `cdn` for a third-party CDN (nothing to watch). */
  state: 'joining' | 'up' | 'down' | 'cdn';
  address: string | null;
  last_seen_at: string | null;
  requests: number;
  /** Share of requests answered from the edge's cache, 0-1; null before any. */
  cache_hit_ratio: number | null;
  bytes_served: number;
  /** Its log is counted up to this time. */
  counted_until: string | null;
  /** How far its counted log is behind now, in seconds. */
  log_lag_seconds: number | null;
  created_at: string;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentEdge(edge: EdgeRow, now: Date): PresentedEdge {
  const up = edgeUp(edge, now);
  const cached = Number(edge.cache_hits) + Number(edge.cache_misses);
  return {
    id: edge.id,
    object: 'edge',
    name: edge.name,
    kind: edge.kind,
    state: edge.kind === 'cdn' ? 'cdn' : !edge.joined_at ? 'joining' : up ? 'up' : 'down',
    address: edge.address,
    last_seen_at: iso(edge.last_seen_at),
    requests: Number(edge.requests),
    cache_hit_ratio: cached === 0 ? null : Math.round((Number(edge.cache_hits) / cached) * 1000) / 1000,
    bytes_served: Number(edge.bytes_served),
    counted_until: iso(edge.counted_until),
    log_lag_seconds:
      edge.counted_until === null
        ? null
        : Math.max(0, Math.round((now.getTime() - edge.counted_until.getTime()) / 1000)),
    created_at: edge.created_at.toISOString(),
  };
}
