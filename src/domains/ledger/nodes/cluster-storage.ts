import type { StorageConfig } from '../../../config/config.js';
import type { Db } from '../../../platform/db/connect.js';

/**
 * Where a node's publish sessions go, or where the primary's recorder reads them: a bucket and
 * prefix (null: the data dir, for an ingest node the origin). Compared without the endpoint: one
 * bucket may be reached at different addresses from different machines.
 */
export interface StorageLocation {
  bucket: string;
  prefix: string;
  endpoint: string | null;
}

export const storageLocation = (storage: StorageConfig | null): StorageLocation | null =>
  storage && { bucket: storage.bucket, prefix: storage.prefix, endpoint: storage.endpoint };

const describe = (l: StorageLocation): string =>
  `bucket "${l.bucket}"${l.prefix ? ` under "${l.prefix}"` : ''} at ${l.endpoint ?? 'AWS S3'}`;

/** A primary says, at each start, where its recorder reads shipped sessions (migration 026). */
export async function recordClusterStorage(
  db: Db,
  location: StorageLocation | null,
  nodeId: string,
  now: Date,
): Promise<void> {
  await db`
    insert into cluster_storage (bucket, prefix, endpoint, written_by, written_at)
    values (${location?.bucket ?? null}, ${location?.prefix ?? ''}, ${location?.endpoint ?? null}, ${nodeId}, ${now})
    on conflict (one) do update set bucket = excluded.bucket, prefix = excluded.prefix,
      endpoint = excluded.endpoint, written_by = excluded.written_by, written_at = excluded.written_at`;
}

/** What the primary last said; undefined when no primary of this version has started yet. */
export async function clusterStorage(db: Db): Promise<{ location: StorageLocation | null } | undefined> {
  const rows = await db<{ bucket: string | null; prefix: string; endpoint: string | null }[]>`
    select bucket, prefix, endpoint from cluster_storage`;
  const row = rows[0];
  if (!row) return undefined;
  return { location: row.bucket === null ? null : { bucket: row.bucket, prefix: row.prefix, endpoint: row.endpoint } };
}

/**
 * Why an ingest node must not start with its object storage: its sessions would go where the
 * primary's recorder never looks. Null when it may: the same bucket and prefix, or none (its
 * sessions go to the origin, which a primary's recorder reads with or without a bucket).
 */
export function shippingRefusal(own: StorageLocation | null, primary: StorageLocation | null): string | null {
  if (!own || (primary && own.bucket === primary.bucket && own.prefix === primary.prefix)) return null;
  const reads = primary
    ? `the primary's recorder reads ${describe(primary)}`
    : 'the primary has no object storage: its recorder reads only what nodes ship to the origin';
  const fix = primary
    ? `\`svc storage set\` here with the primary's bucket and key pair (docs/operations.md, "Object storage on a cluster")`
    : '`svc storage set --local` here (or give the primary this bucket first)';
  return `this ingest node would ship its publish sessions to ${describe(own)}, but ${reads}: its broadcasts would be missing from their recordings. Run ${fix}, then \`svc up\` again`;
}
