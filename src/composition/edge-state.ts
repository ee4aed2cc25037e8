import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * What a running edge knows of itself, written to `run/edge-state.json` after every heartbeat and
 * log batch: `svc edge status` (another process) reads it. Counts are since the edge started.
 */
export interface EdgeState {
  pid: number;
  edge_id: string;
  started_at: string;
  updated_at: string;
  nginx_up: boolean;
  /** Open viewer connections (stub_status). */
  connections: number;
  origin: {
    /** The last heartbeat was answered. */
    reachable: boolean;
    last_contact_at: string | null;
    last_error: string | null;
  };
  log: {
    /** Everything this edge logged before this was counted by the origin. */
    counted_until: string | null;
    file_id: string | null;
    byte_offset: number | null;
    last_error: string | null;
  };
  /** What the batches the origin accepted since the start served. */
  served: { requests: number; hits: number; misses: number; bytes: number };
  /** Streams whose public address this edge refuses now. */
  refused_streams: number;
}

export function writeEdgeState(file: string, state: EdgeState): void {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(state) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}

/** null when there is none or it cannot be read (an edge that never ran, a torn write by hand). */
export function readEdgeState(file: string): EdgeState | null {
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as EdgeState;
  } catch {
    return null;
  }
}
