import type { Db } from '../../../platform/db/connect.js';

/** A stream an SRT publisher may reach: its port, and the key hash its passphrase comes from. */
export interface SrtTarget {
  id: string;
  srt_port: number;
  key_hash: Buffer;
}

/**
 * Streams that can be published to (pending, or live and within or before their reconnect window)
 * on node `nodeId`: the one their `srt_url` names. A box that knows no nodes (null) listens for all.
 */
export function srtTargets(db: Db, nodeId: string | null): Promise<SrtTarget[]> {
  return db<SrtTarget[]>`
    select id, srt_port, key_hash from streams
    where status in ('pending', 'live') and srt_port is not null
      and (${nodeId}::text is null or node_id is null or node_id = ${nodeId})`;
}
