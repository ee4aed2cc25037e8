import { writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { ConfigError, storageSettings, type Config } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { Secrets } from '../config/secrets.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { clusterStorage, shippingRefusal, storageLocation } from '../domains/ledger/nodes/cluster-storage.js';
import type { JoinStorage } from '../domains/ledger/nodes/service.js';
import type { Sql } from '../platform/db/connect.js';
import { S3Store, StorageCheckError } from '../platform/storage/s3-store.js';
import { Spool, type SpoolReadings } from '../platform/storage/spool.js';

/** The key pair of config.json's object storage, which secrets.json must have. */
function storageKeys(secrets: Secrets): NonNullable<Secrets['storage']> {
  if (!secrets.storage)
    throw new ConfigError(
      'config.json names object storage but secrets.json has no key pair for it: run `svc storage set` with --access-key-id and --secret-access-key',
    );
  return secrets.storage;
}

/** The bucket of `storage` in config.json with the key pair of secrets.json; null: the data dir. */
export function objectStore(config: Config, secrets: Secrets): S3Store | null {
  const s = config.storage;
  if (!s) return null;
  const keys = storageKeys(secrets);
  const callMs = s.timeoutSeconds * 1000;
  return new S3Store({
    endpoint: s.endpoint,
    region: s.region,
    bucket: s.bucket,
    forcePathStyle: s.forcePathStyle,
    prefix: s.prefix,
    accessKeyId: keys.access_key_id,
    secretAccessKey: keys.secret_access_key,
    timeouts: { connectMs: Math.min(3000, callMs), idleMs: Math.min(20_000, callMs), callMs },
  });
}

/** The object storage a joining node is given (`svc node join`): the primary's, key pair included. */
export const joinStorage = (config: Config, secrets: Secrets): JoinStorage | null =>
  config.storage && { settings: storageSettings(config.storage), keys: storageKeys(secrets) };

/**
 * An ingest node's publish sessions go where the primary's recorder reads them (docs/decisions.md,
 * "Ingest nodes: the primary's object storage"): a start that would lose them stops, naming the fix.
 */
export async function checkShipping(sql: Sql, config: Config, logger: Logger): Promise<void> {
  const own = storageLocation(config.storage);
  const cluster = await clusterStorage(sql);
  if (!cluster) {
    if (own) logger.warn('no primary has said where its recorder reads shipped sessions yet: not checked');
    return;
  }
  const refusal = shippingRefusal(own, cluster.location);
  if (refusal) throw new ConfigError(refusal);
  if (!own && cluster.location)
    logger.info('publish sessions go to the origin: the primary reads them there besides its bucket');
}

/** What `svc status` and `/metrics` show of object storage (`run/storage-state.json`). */
export interface StorageState extends SpoolReadings {
  kind: 'local' | 's3';
  /** Where: the endpoint and bucket; null for the data dir. */
  where: string | null;
  at: string;
}

/** The appliance process's object storage: the bucket, the spool in front, its state file for `svc status`. */
export class ApplianceStorage {
  readonly spool: Spool;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly store: S3Store,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    const s = config.storage!;
    this.spool = new Spool({
      dir: dataPaths(config.dataDir).spool,
      store,
      maxBytes: s.spoolMaxBytes,
      logger,
      retry: { minTimeoutMs: Math.min(1000, s.retryMaxSeconds * 1000), maxTimeoutMs: s.retryMaxSeconds * 1000 },
    });
  }

  /**
   * Fails the start with what to fix when the storage refuses (no such bucket, a wrong key pair);
   * one that does not answer only warns: an outage must not keep live streaming down, and the
   * spool holds what is recorded meanwhile. Then resumes what the spool holds.
   */
  async start(): Promise<void> {
    try {
      await this.store.check();
    } catch (err) {
      if (!(err instanceof StorageCheckError) || err.answered) throw err;
      this.logger.warn({ err: err.message }, 'object storage does not answer; recordings wait in the spool');
    }
    await this.spool.start();
    this.timer = setInterval(() => void this.writeState(), 2000);
    this.timer.unref();
    await this.writeState();
  }

  state(): StorageState {
    return { kind: 's3', where: this.store.where, at: this.clock.now().toISOString(), ...this.spool.readings() };
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.spool.stop();
    await this.writeState();
    this.store.destroy();
  }

  private async writeState(): Promise<void> {
    const path = dataPaths(this.config.dataDir).storageState;
    try {
      await writeFile(`${path}.tmp`, JSON.stringify(this.state()));
      await rename(`${path}.tmp`, path);
    } catch (err) {
      this.logger.warn({ err }, 'storage state not written');
    }
  }
}

/** Where session slices are cut before the spool takes them: beside it, on its file system. */
export const slicesDir = (config: Config): string => join(dataPaths(config.dataDir).spool, 'slices');
