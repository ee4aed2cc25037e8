import { hostname } from 'node:os';
import { newId } from '../core/ids.js';
import { existsSync } from 'node:fs';
import { managedCluster } from '../platform/db/managed-cluster.js';
import {
  ConfigError,
  readConfigFile,
  resolveConfig,
  writeConfigFile,
  type Config,
  type ConfigEnv,
} from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { ConfigFile } from '../config/schema.js';
import { ensureSecrets, type Secrets } from '../config/secrets.js';
import { connect } from '../platform/db/connect.js';
import { protectDataDir } from '../platform/system/data-dir.js';
import { nginxWorkerUser } from '../platform/nginx/nginx.js';
import { migrate } from '../platform/db/migrate.js';
import { ensureSystemPackages, type EnsurePackagesResult } from '../platform/system/packages.js';

export const isRoot = (): boolean => process.getuid?.() === 0;

/** The config keys `svc init` (and `svc up` on a fresh data dir) set from flags. */
export interface ConfigFlags {
  'database-url'?: string | undefined;
  host?: string | undefined;
  'api-port'?: number | undefined;
  'rtmp-port'?: number | undefined;
  'cdn-port'?: number | undefined;
  'player-port'?: number | undefined;
  'postgres-port'?: number | undefined;
  'metrics-port'?: number | undefined;
  'api-workers'?: number | undefined;
  'allow-private-webhooks'?: boolean | undefined;
  /** `MIN-MAX`: the UDP ports of WHIP media. */
  'whip-udp-ports'?: string | undefined;
  'ice-address'?: string[] | undefined;
  domain?: string | undefined;
  'player-domain'?: string | undefined;
  'cdn-domain'?: string | undefined;
  /** `path` or `query`: where playback addresses carry their signature. */
  'cdn-token-form'?: string | undefined;
  'acme-email'?: string | undefined;
  'acme-directory'?: string | undefined;
  'acme-ca-file'?: string | undefined;
  'certificate-file'?: string | undefined;
  'key-file'?: string | undefined;
  'https-port'?: number | undefined;
  'http-port'?: number | undefined;
  'rtmps-port'?: number | undefined;
  tls?: boolean | undefined;
}

const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/**
 * The TLS flags as a change to the file's `tls` (merged by updateConfigFile); null: `--no-tls`.
 * An ACME email replaces operator files and the reverse: one source of certificates at a time.
 */
function tlsChanges(flags: ConfigFlags): Partial<NonNullable<ConfigFile['tls']>> | null | undefined {
  if (flags.tls === false) return null;
  const acme = defined({
    email: flags['acme-email'],
    directory_url: flags['acme-directory'],
    ca_file: flags['acme-ca-file'],
  });
  const tls = defined({
    domain: flags.domain,
    player_domain: flags['player-domain'],
    cdn_domain: flags['cdn-domain'],
    certificate_file: flags['certificate-file'],
    key_file: flags['key-file'],
    https_port: flags['https-port'],
    http_port: flags['http-port'],
    rtmps_port: flags['rtmps-port'],
    ...(Object.keys(acme).length ? { acme: acme as NonNullable<NonNullable<ConfigFile['tls']>['acme']> } : {}),
  });
  return Object.keys(tls).length ? tls : undefined;
}

/** `--whip-udp-ports 40000-40999` and `--ice-address` as `whip` settings (merged into the file's). */
function whipChanges(flags: ConfigFlags): ConfigFile['whip'] {
  if (flags['whip-udp-ports'] === undefined && flags['ice-address'] === undefined) return undefined;
  const whip: NonNullable<ConfigFile['whip']> = {};
  if (flags['whip-udp-ports'] !== undefined) {
    const m = /^(\d{1,5})-(\d{1,5})$/.exec(flags['whip-udp-ports']);
    if (!m) throw new ConfigError(`--whip-udp-ports ${flags['whip-udp-ports']}: give a range such as 40000-40999`);
    whip.udp_port_min = Number(m[1]);
    whip.udp_port_max = Number(m[2]);
  }
  if (flags['ice-address'] !== undefined) whip.ice_addresses = flags['ice-address'];
  return whip;
}

/** Only the flags given: re-running init keeps every value not named on the command line. */
export function configChanges(flags: ConfigFlags): ConfigFile {
  const changes: ConfigFile = {
    database_url: flags['database-url'],
    host: flags.host,
    api_port: flags['api-port'],
    rtmp_port: flags['rtmp-port'],
    cdn_port: flags['cdn-port'],
    player_port: flags['player-port'],
    postgres_port: flags['postgres-port'],
    metrics_port: flags['metrics-port'],
    api_workers: flags['api-workers'],
    allow_private_webhooks: flags['allow-private-webhooks'],
    whip: whipChanges(flags),
    cdn: flags['cdn-token-form'] ? { token_form: flags['cdn-token-form'] as 'path' | 'query' } : undefined,
    tls: tlsChanges(flags) as ConfigFile['tls'],
  };
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as ConfigFile;
}

/** Creates the data dir and its folders with the modes `svc up` keeps (PostgreSQL's user walks through, nobody else reads). */
export async function prepareDataDir(dataDir: string): Promise<void> {
  protectDataDir(dataDir, await nginxWorkerUser());
}

/** Merges `changes` into config.json (validated; an invalid existing file is reported, not overwritten). */
export function updateConfigFile(dataDir: string, changes: ConfigFile): { file: ConfigFile; created: boolean } {
  const existing = readConfigFile(dataDir);
  const file = { ...existing, ...changes };
  if (changes.whip) file.whip = { ...existing?.whip, ...changes.whip };
  if (changes.cdn) file.cdn = { ...existing?.cdn, ...changes.cdn };
  if (changes.tls) file.tls = mergeTls(existing?.tls ?? null, changes.tls);
  file.node ??= primaryNode();
  writeConfigFile(dataDir, file);
  return { file, created: existing === null };
}

/**
 * Every appliance is a node of its own cluster (docs/decisions.md, "Ingest nodes"): a data dir made
 * before nodes gets its identity at its next `svc up`.
 */
export function ensureNodeIdentity(dataDir: string): void {
  const file = readConfigFile(dataDir);
  if (file && !file.node) writeConfigFile(dataDir, { ...file, node: primaryNode() });
}

/** A new primary's identity: a name from the machine's host name, made unique by the id's end. */
function primaryNode(): NonNullable<ConfigFile['node']> {
  const id = newId('nod_');
  const host =
    hostname()
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'node';
  return { id, name: `${host}-${id.slice(-4)}`, role: 'primary' };
}

function mergeTls(existing: ConfigFile['tls'], change: NonNullable<ConfigFile['tls']>): ConfigFile['tls'] {
  const merged = { ...existing, ...change };
  if (change.acme) {
    merged.acme = { ...existing?.acme, ...change.acme };
    if (!change.certificate_file) delete merged.certificate_file;
    if (!change.key_file) delete merged.key_file;
  } else if (change.certificate_file || change.key_file) delete merged.acme;
  return merged;
}

export interface InitResult {
  data_dir: string;
  config_file: string;
  secrets_file: string;
  created: boolean;
  config: ConfigFile;
  packages: EnsurePackagesResult | null;
  database: { managed: boolean; migrations_applied: string[] };
  base_url: string;
  player_url: string;
  cdn_url: string;
  rtmp_url: string;
  allow_private_webhooks: boolean;
}

export async function initialise(opts: {
  dataDir: string;
  changes: ConfigFile;
  install: boolean;
  env: ConfigEnv;
  progress: (line: string) => void;
}): Promise<InitResult> {
  const { dataDir, progress } = opts;
  const paths = dataPaths(dataDir);
  const fresh = !existsSync(paths.config);
  await prepareDataDir(dataDir);
  const { file, created } = updateConfigFile(dataDir, opts.changes);
  progress(`${created ? 'wrote' : 'updated'} ${paths.config}`);
  const config = resolveConfig(dataDir, file, opts.env);
  const secrets = ensureSecrets(dataDir);

  let packages: EnsurePackagesResult | null = null;
  if (opts.install) {
    progress('checking system packages');
    packages = await ensureSystemPackages({ isRoot: isRoot(), onLine: (line) => progress(`  apt: ${line}`) });
    if (packages.installed.length) progress(`installed ${packages.installed.join(', ')}`);
  }

  const applied = await migrateDatabase(config, secrets, progress);
  progress(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
  return {
    data_dir: dataDir,
    config_file: paths.config,
    secrets_file: paths.secrets,
    created: fresh,
    config: file,
    packages,
    database: { managed: config.databaseUrl === null, migrations_applied: applied },
    base_url: config.publicUrls.base_url,
    player_url: config.publicUrls.player_url,
    cdn_url: config.publicUrls.cdn_url,
    rtmp_url: config.publicUrls.rtmp_url,
    allow_private_webhooks: config.allowPrivateWebhooks,
  };
}

/** Managed cluster: initialised and started for the migration, and stopped again only if it was not running. */
async function migrateDatabase(config: Config, secrets: Secrets, progress: (line: string) => void): Promise<string[]> {
  const withSql = async (url: string) => {
    const sql = connect(url, { max: 1 });
    try {
      return await migrate(sql);
    } finally {
      await sql.end({ timeout: 5 });
    }
  };
  if (config.databaseUrl) return withSql(config.databaseUrl);
  const cluster = managedCluster(config, secrets, progress);
  const wasRunning = await cluster.running();
  await cluster.init();
  if (!wasRunning) await cluster.start();
  try {
    return await withSql(cluster.url);
  } finally {
    if (!wasRunning) {
      progress('stopping PostgreSQL');
      await cluster.stop();
    }
  }
}
