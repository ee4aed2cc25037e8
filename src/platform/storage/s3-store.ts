import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { checkKey } from './fs-store.js';
import type { ObjectStore, PutOptions, StoredObject } from './store.js';

export interface S3Settings {
  /** The S3 API's address (MinIO, Ceph RGW, R2, B2); null: AWS's own for the region. */
  endpoint: string | null;
  region: string;
  bucket: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key` (MinIO, Ceph without wildcard DNS). */
  forcePathStyle: boolean;
  /** Put before every key (`svc/`), so one bucket can serve several installs; '' for none. */
  prefix: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Limits of one call (tests shorten them): a store that does not answer fails fast, the spool retries. */
  timeouts?: { connectMs: number; idleMs: number; callMs: number };
}

/** Bigger files go up in parts of this size, two at a time (S3's minimum part is 5 MiB). */
const PART_BYTES = 16 * 1024 * 1024;
/**
 * Connect within 3 s, no byte for 20 s fails a call, a whole small call within 30 s; one try:
 * during an outage every caller hears so at once, and the spool does the retrying.
 */
const DEFAULT_TIMEOUTS = { connectMs: 3000, idleMs: 20_000, callMs: 30_000 };
/** A presigned address lives at most 7 days (SigV4's limit, the spec's longest download). */
const MAX_PRESIGN_SECONDS = 604_800;

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404);

/** Where a presigned address of this bucket points (`scheme://host[:port]`), for nginx to fetch from. */
export function bucketOrigin(s: Pick<S3Settings, 'endpoint' | 'region' | 'bucket' | 'forcePathStyle'>): string {
  const endpoint = new URL(s.endpoint ?? `https://s3.${s.region}.amazonaws.com`);
  return s.forcePathStyle ? endpoint.origin : `${endpoint.protocol}//${s.bucket}.${endpoint.host}`;
}

/**
 * Objects in an S3-compatible bucket (AWS S3, R2, B2, Ceph RGW, MinIO). Every call has a time
 * limit and one try (the spool in front retries); big files go up in parts.
 */
export class S3Store implements ObjectStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly prefix: string;
  private readonly timeouts: NonNullable<S3Settings['timeouts']>;

  constructor(private readonly settings: S3Settings) {
    this.timeouts = settings.timeouts ?? DEFAULT_TIMEOUTS;
    this.prefix = settings.prefix && !settings.prefix.endsWith('/') ? `${settings.prefix}/` : settings.prefix;
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint ?? undefined,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      maxAttempts: 1,
      // S3-compatible servers (Ceph, MinIO, B2) do not all know the newer checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Without throwOnRequestTimeout the SDK only logs when requestTimeout passes and waits on:
      // a multipart part (which has no call limit) would hang for as long as the bucket is silent.
      requestHandler: {
        connectionTimeout: this.timeouts.connectMs,
        requestTimeout: this.timeouts.idleMs,
        throwOnRequestTimeout: true,
      },
    });
  }

  /** What logs and errors name: the endpoint and the bucket, never a key. */
  get where(): string {
    return `${bucketOrigin(this.settings)} bucket "${this.settings.bucket}"`;
  }

  private objectKey(key: string): string {
    return this.prefix + checkKey(key);
  }

  private signal(): AbortSignal {
    return AbortSignal.timeout(this.timeouts.callMs);
  }

  async put(key: string, body: Buffer | string, options: PutOptions = {}): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: body,
        ContentType: options.contentType,
        CacheControl: options.cacheControl,
      }),
      { abortSignal: this.signal() },
    );
  }

  async putFile(key: string, path: string, options: PutOptions = {}): Promise<void> {
    const { size } = await stat(path);
    if (size <= PART_BYTES) return this.put(key, await readFile(path), options);
    // Parts are retried by the spool as a whole upload: a file this size is a recording, rare.
    const upload = new Upload({
      client: this.client,
      partSize: PART_BYTES,
      queueSize: 2,
      leavePartsOnError: false,
      params: {
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(path),
        ContentType: options.contentType,
        CacheControl: options.cacheControl,
      },
    });
    await upload.done();
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
        { abortSignal: this.signal() },
      );
      return Buffer.from(await out.Body!.transformToByteArray());
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async getFile(key: string, path: string): Promise<boolean> {
    let body: Readable;
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      body = out.Body as Readable;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
    const tmp = `${path}.tmp-download`;
    try {
      // The idle limit of the handler applies to the body too: a stalled download fails.
      await pipeline(body, createWriteStream(tmp));
      await rename(tmp, path);
      return true;
    } finally {
      await rm(tmp, { force: true });
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    const found: StoredObject[] = [];
    let token: string | undefined;
    do {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.settings.bucket,
          Prefix: this.prefix + prefix,
          ContinuationToken: token,
        }),
        { abortSignal: this.signal() },
      );
      for (const o of out.Contents ?? [])
        if (o.Key) found.push({ key: o.Key.slice(this.prefix.length), bytes: o.Size ?? 0 });
      token = out.IsTruncated ? out.NextContinuationToken : undefined;
    } while (token);
    return found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    // S3 answers 204 for a key that is not there.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }), {
      abortSignal: this.signal(),
    });
  }

  /** One DELETE per object: DeleteObjects needs checksum headers that not every S3-compatible server takes. */
  async deletePrefix(prefix: string): Promise<number> {
    const objects = await this.list(prefix);
    for (let i = 0; i < objects.length; i += 8)
      await Promise.all(objects.slice(i, i + 8).map((o) => this.delete(o.key)));
    return objects.length;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }), {
        abortSignal: this.signal(),
      });
    } catch (err) {
      throw new StorageCheckError(`object storage ${this.where}: ${describe(err)}`, err instanceof S3ServiceException);
    }
  }

  async presign(key: string, expiresInSeconds: number): Promise<string> {
    const seconds = Math.ceil(expiresInSeconds);
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }), {
      expiresIn: Math.min(MAX_PRESIGN_SECONDS, Math.max(1, seconds)),
    });
  }

  destroy(): void {
    this.client.destroy();
  }
}

/** The bucket did not answer a check. */
export class StorageCheckError extends Error {
  constructor(
    message: string,
    /** The storage answered (no such bucket, access denied): a setting to fix, not an outage. */
    readonly answered: boolean,
  ) {
    super(message);
  }
}

/** An S3 error as what an operator fixes. */
function describe(err: unknown): string {
  if (err instanceof S3ServiceException) {
    const status = err.$metadata.httpStatusCode;
    if (status === 404) return 'the bucket does not exist (create it, or fix storage.bucket)';
    if (status === 403 || status === 401)
      return 'access denied (check the access key pair: `svc storage set`, and the bucket policy)';
    return `${err.name} (HTTP ${status ?? '?'})`;
  }
  const e = err as Error & { code?: string };
  if (e.name === 'TimeoutError' || e.name === 'AbortError')
    return 'no answer in time (is storage.endpoint right and up?)';
  return `${e.code ?? e.name}: ${e.message} (is storage.endpoint right and up?)`;
}
