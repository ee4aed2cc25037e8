/**
 * Where media and recordings are kept, by key (`<folder>/<file>`, no leading slash): the node's
 * own data dir (one box), the origin node over HTTP (an ingest node of a cluster), or an
 * S3-compatible bucket (docs/decisions.md, "Object storage"). Every write replaces the whole
 * object at once: a reader sees the old one or the new one, never part of one.
 */
export interface ObjectStore {
  /** For logs, status and metrics: `local`, `origin` or `s3`. */
  readonly kind: 'local' | 'origin' | 's3';
  put(key: string, body: Buffer | string, options?: PutOptions): Promise<void>;
  /** Uploads a file (multipart where the store has it, for big ones). */
  putFile(key: string, path: string, options?: PutOptions): Promise<void>;
  /** The object, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  /** Downloads to `path`; false when there is no such object. */
  getFile(key: string, path: string): Promise<boolean>;
  /** Objects whose keys start with `prefix`, in key order. */
  list(prefix: string): Promise<StoredObject[]>;
  /** No error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Deletes every object under `prefix`; how many went. */
  deletePrefix(prefix: string): Promise<number>;
  /** Throws, naming what to fix, when the store does not answer (status, metrics, `svc up`); absent: always there. */
  check?(): Promise<void>;
  /** A time-limited GET address of the object for a client, where the store has them (S3). */
  presign?(key: string, expiresInSeconds: number): Promise<string>;
}

export interface PutOptions {
  contentType?: string;
  cacheControl?: string;
}

export interface StoredObject {
  key: string;
  bytes: number;
}

/**
 * The path and query of a presigned GET of `key`, for the origin's nginx to fetch (the bucket's
 * host is in its config); null where the store has no presigned addresses (none but S3).
 */
export async function presignedPath(
  store: ObjectStore | undefined,
  key: string,
  expiresInSeconds: number,
): Promise<string | null> {
  if (!store?.presign) return null;
  const url = new URL(await store.presign(key, expiresInSeconds));
  return `${url.pathname}${url.search}`;
}
