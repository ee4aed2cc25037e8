import { iso } from '../../../core/time.js';
import type { OutputRow } from './queries.js';
import type { StreamOutput } from './schemas.js';
import { maskKey } from './target.js';

/** The spec-style StreamOutput: the key masked, always (create included). */
export function presentOutput(row: OutputRow): StreamOutput {
  return {
    object: 'stream_output',
    id: row.id,
    stream_id: row.stream_id,
    name: row.name,
    url: row.url,
    stream_key: maskKey(row.stream_key),
    enabled: row.enabled,
    status: row.status,
    last_error: row.last_error,
    connected_at: iso(row.connected_at),
    bytes_sent: row.bytes_sent,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
