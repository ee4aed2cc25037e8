import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import { availableParallelism } from 'node:os';
import type {
  AccountLimits,
  BillingSettings,
  CdnSettings,
  ChatConfig,
  ConfigFile,
  WhipSettings,
  SrtSettings,
  LiveSettings,
  LogSettings,
  RecordingSettings,
  StorageSettings,
  StreamCosts,
  TlsSettings,
  ViewerSettings,
} from './schema.js';
import { ConfigFileSchema } from './schema.js';
import { BROWSER_BLOCKED_PORTS, nextBrowserPort } from './browser-ports.js';

/** Debian's bundle of the system's certificate authorities (package ca-certificates). */
export const SYSTEM_CA_FILE = '/etc/ssl/certs/ca-certificates.crt';

export interface PublicUrls {
  base_url: string;
  player_url: string;
  cdn_url: string;
  rtmp_url: string;
  whip_url: string;
  srt_host: string;
}

/** HTTPS on every public surface and RTMPS ingest (docs/decisions.md, "Public edge"). */
export interface TlsConfig {
  domain: string;
  playerDomain: string;
  cdnDomain: string;
  /** Every name the certificate covers, the API's first. */
  names: string[];
  ports: { https: number; http: number; rtmps: number; rtmps_relay: number };
  acme: {
    email: string;
    directoryUrl: string;
    caFile: string | null;
    renewBeforeDays: number;
    retrySeconds: number;
  } | null;
  /** Fewer days left than this: a warning everywhere. */
  warnDays: number;
  /** How often the certificate is looked at (renewal, expiry). */
  checkSeconds: number;
  /** The operator's own certificate chain and key, instead of ACME. */
  files: { certificate: string; key: string } | null;
}

/** An S3-compatible bucket for recordings and session pieces (docs/decisions.md, "Object storage"). */
export interface StorageConfig {
  kind: 's3';
  endpoint: string | null;
  region: string;
  bucket: string;
  forcePathStyle: boolean;
  prefix: string;
  spoolMaxBytes: number;
  sliceSeconds: number;
  retryMaxSeconds: number;
  timeoutSeconds: number;
}

/** Read once at start, validated, frozen and injected; nothing else reads the environment. */
export interface Config {
  dataDir: string;
  host: string;
  listenHost: string;
  ports: { api: number; rtmp: number; cdn: number; player: number; postgres: number };
  /** API worker processes behind nginx on the API port; 0: the appliance's own process serves the API. */
  apiWorkers: number;
  /** Load balancers whose `X-Forwarded-For` the API believes (besides this machine). */
  trustedProxies: string[];
  /** The operator's Prometheus listener (docs/operations.md, Metrics); port null: none. */
  metrics: { host: string; port: number | null };
  /** null: the appliance-owned cluster under the data dir. */
  databaseUrl: string | null;
  postgresBinDir: string | null;
  publicUrls: PublicUrls;
  /** null: plain http everywhere. */
  tls: TlsConfig | null;
  allowPrivateWebhooks: boolean;
  /** Restreaming outputs may target private networks and loopback (receivers on the operator's own network). */
  allowPrivateOutputs: boolean;
  /** The CA bundle RTMPS outputs' certificates are verified against. */
  outputCaFile: string;
  /** null: recordings in the data dir. */
  storage: StorageConfig | null;
  logLevel: string;
  reservationSeconds: number;
  expiryCheckSeconds: number;
  limits: { new: AccountLimits; trusted: AccountLimits };
  live: LiveSettings;
  /** This machine in the cluster; `id` null: a process that is no node (an API in tests). */
  node: { id: string | null; name: string | null; role: 'primary' | 'ingest'; originUrl: string | null };
  capacity: { cores: number; reservedCores: number; streamCost: StreamCosts };
  recordings: RecordingSettings;
  viewers: ViewerSettings;
  logs: LogSettings;
  billing: BillingSettings;
  cdn: CdnSettings;
  whip: WhipSettings;
  srt: SrtSettings;
  chat: ChatConfig;
}

export const CONFIG_FILE = 'config.json';

export const DEFAULT_LIMITS: Config['limits'] = {
  new: {
    pending_streams: 2,
    creations_per_hour: 10,
    max_resolution: 720,
    max_duration_seconds: 4 * 3600,
    live_at_once: 1,
    ingest_hours_per_month: 20,
  },
  trusted: {
    pending_streams: 20,
    creations_per_hour: 100,
    max_resolution: 1080,
    max_duration_seconds: 24 * 3600,
    live_at_once: 10,
    ingest_hours_per_month: null,
  },
};

/**
 * superfast: on 2 cores one 1080p ladder at veryfast dropped GOPs in 2 of 6 live runs, superfast
 * sustained two (research/pipeline_feasibility.md). Windows are the spec's.
 */
export const DEFAULT_LIVE: LiveSettings = {
  ffmpeg_path: 'ffmpeg',
  ffprobe_path: 'ffprobe',
  nginx_path: 'nginx',
  x264_preset: 'superfast',
  segment_seconds: 4,
  first_segment_seconds: 0,
  window_segments: 6,
  reconnect_window_seconds: 60,
  idle_publisher_seconds: 10,
  limit_grace_seconds: 20,
  bitrate_window_seconds: 30,
  max_ingest_kbps: 7500,
  sample_seconds: 3,
  thumbnail_seconds: 20,
  passthrough_thumbnail_seconds: 60,
};

/**
 * Cores per live stream, measured by `npm run bench` on the 2-core Xeon (2.0 GHz) this was built
 * on: a 1080p ladder at superfast 1.53-1.56, a 720p one 0.41, copying 0.044 (docs/operations.md).
 * Relays beside the ladder, for a 720p30 3 Mbit/s publisher (`npm run bench -- ingest`): SRT's
 * ffmpeg 0.006-0.010, RTMPS's TLS in nginx 0.003, WHIP's ffmpeg 0.07; about twice that is held.
 */
export const DEFAULT_STREAM_COST: StreamCosts = {
  abr_1080: 1.5,
  abr_720: 0.45,
  copy_only: 0.05,
  srt_relay: 0.02,
  rtmps_relay: 0.01,
  whip_relay: 0.1,
};

export const DEFAULT_RECORDINGS: RecordingSettings = { retry_seconds: 60, check_seconds: 5, pieces_wait_seconds: 120 };

/**
 * Players beat every 15 s; the live estimate is sampled every 5 s into per-minute rows. Members get
 * personal addresses valid 5 minutes; token viewers report every 30 s for attendance, which each
 * node writes every 15 s.
 */
export const DEFAULT_VIEWERS: ViewerSettings = {
  beat_interval_seconds: 15,
  sample_seconds: 5,
  personal_playback_seconds: 300,
  attendance_interval_seconds: 30,
  attendance_flush_seconds: 15,
  address_new_viewers_burst: 250,
  address_new_viewers_per_minute: 60,
  address_max_viewers: 500,
};

/** Each log file is rotated past 50 MB, five old files kept: at most about 300 MB per log. */
export const DEFAULT_LOGS: LogSettings = { max_bytes: 50 * 1024 * 1024, keep: 5, check_seconds: 60 };

/** The spec's rates; metering every 10 s ends a prepaid stream within about 10 s of its credit running out. */
export const DEFAULT_BILLING: BillingSettings = {
  rates: {
    abr_basic_per_minute: '0.003',
    passthrough_per_minute: '0.0005',
    delivery_per_gb: '0.03',
    storage_per_gb_month: '0.03',
  },
  low_credit_usd: '5.00',
  meter_seconds: 10,
  zero_balance_days: 7,
};
/** The CDN log is read every 30 s: a delivered byte is counted within about a minute. */
export const DEFAULT_CDN: CdnSettings = {
  log_read_seconds: 30,
  country_table: {},
  direct_viewers: true,
  token_form: 'path',
};

/**
 * WebRTC media on 40000-40999/udp (1000 ports: one per session, sessions are few per core);
 * a keyframe every 2 s (the spec's advice); werift itself fails a silent peer only after 30 s.
 */
export const DEFAULT_WHIP: Omit<WhipSettings, 'ice_addresses'> = {
  udp_port_min: 40000,
  udp_port_max: 40999,
  keyframe_seconds: 2,
  connect_timeout_seconds: 10,
  idle_seconds: 5,
};

/** One port per stream that can be published over SRT; 1 s of latency absorbs an internet path's retransmissions. */
export const DEFAULT_SRT: SrtSettings = { port_min: 10000, port_max: 10999, latency_ms: 1000 };

/**
 * Chat limits (docs/decisions.md, Chat): 5 posts per 10 s per viewer; a node holds 7,000 readers
 * (each is two of nginx's 16,384 connections: past that nginx would drop readers without an answer).
 */
export const DEFAULT_CHAT_CONFIG: ChatConfig = {
  posts_per_window: 5,
  post_window_seconds: 10,
  reactions_per_window: 20,
  reactions_per_second: 100,
  max_readers: 7000,
  max_readers_per_address: 250,
  max_posts_in_flight: 64,
  fanout_ms: 100,
};

export const LETS_ENCRYPT_DIRECTORY = 'https://acme-v02.api.letsencrypt.org/directory';

/**
 * RTMPS on 1936: 443 is the pages' (OBS and encoders take any port); nginx-rtmp reads it back on
 * 127.0.0.1:11936. Renewal 30 days ahead (Let's
 * Encrypt's advice for 90-day certificates), a failed order retried after a minute, then twice as
 * long each time; a warning under 14 days, a look every hour.
 */
export const DEFAULT_TLS = {
  ports: { https: 443, http: 80, rtmps: 1936, rtmps_relay: 11936 },
  renewBeforeDays: 30,
  retrySeconds: 60,
  warnDays: 14,
  checkSeconds: 3600,
};

export class ConfigError extends Error {}

/** Refuses a port browsers will not load (browser-ports.ts) for a setting browsers reach; `where` names the file. */
export function refuseBrowserBlockedPorts(
  where: string,
  ports: ReadonlyArray<readonly [setting: string, port: number | undefined]>,
): void {
  for (const [setting, port] of ports)
    if (port !== undefined && BROWSER_BLOCKED_PORTS.has(port))
      throw new ConfigError(
        `${where}: "${setting}" is ${port}, a port browsers refuse to load (ERR_UNSAFE_PORT): choose another, such as ${nextBrowserPort(port)}`,
      );
}

/** The settings of config.json that browsers reach: the player, its video, the API its pages call. */
const browserPorts = (file: ConfigFile) =>
  [
    ['api_port', file.api_port],
    ['cdn_port', file.cdn_port],
    ['player_port', file.player_port],
    ['tls.https_port', file.tls?.https_port],
    ['tls.http_port', file.tls?.http_port],
  ] as const;

const validateFile = new Ajv({ allErrors: true, strict: false }).compile<ConfigFile>(ConfigFileSchema);

/** A validator's errors as one line, each quoting its key (`file: unknown key "a.b"`); also for the edge's files. */
export function describeSchemaErrors(file: string, errors: readonly ErrorObject[]): string {
  return errors
    .map((e) => {
      const key = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
      if (e.keyword === 'additionalProperties') {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        return `${file}: unknown key "${key ? `${key}.` : ''}${extra}"`;
      }
      return `${file}: "${key || '(root)'}" ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

const describeErrors = (file: string): string => describeSchemaErrors(file, validateFile.errors ?? []);

export function readConfigFile(dataDir: string): ConfigFile | null {
  const path = join(dataDir, CONFIG_FILE);
  if (!existsSync(path)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(
      `${path} is not valid JSON (${(err as Error).message}); fix or remove it and run \`svc init\``,
    );
  }
  if (!validateFile(parsed)) throw new ConfigError(describeErrors(path));
  return parsed;
}

/** Validates, then replaces the file atomically: a half-written config would stop the next start. */
export function writeConfigFile(dataDir: string, file: ConfigFile): void {
  const path = join(dataDir, CONFIG_FILE);
  if (!validateFile(file)) throw new ConfigError(describeErrors(path));
  refuseBrowserBlockedPorts(path, browserPorts(file));
  const tmp = `${path}.${process.pid}.tmp`;
  // It names the database URL (with its password, when external): the appliance's user only.
  writeFileSync(tmp, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, path);
}

/** Environment overrides the file; the CLI passes its environment in. */
export interface ConfigEnv {
  SVC_DATABASE_URL?: string | undefined;
  SVC_LOG_LEVEL?: string | undefined;
  FFMPEG_PATH?: string | undefined;
}

export function resolveConfig(dataDir: string, file: ConfigFile, env: ConfigEnv = {}): Config {
  refuseBrowserBlockedPorts('config.json', browserPorts(file));
  const host = file.host ?? '127.0.0.1';
  const ports = {
    api: file.api_port ?? 8080,
    rtmp: file.rtmp_port ?? 1935,
    cdn: file.cdn_port ?? 8081,
    player: file.player_port ?? 8082,
    postgres: file.postgres_port ?? 5439,
  };
  const tls = tlsConfig(file.tls ?? null, ports);
  const urls = { ...(tls ? tlsUrls(tls, ports) : plainUrls(host, ports)), ...file.public_urls };
  const merged = { ...file };
  if (env.SVC_LOG_LEVEL) merged.log_level = env.SVC_LOG_LEVEL as ConfigFile['log_level'];
  if (env.SVC_DATABASE_URL) merged.database_url = env.SVC_DATABASE_URL;
  if (!validateFile(merged)) throw new ConfigError(describeErrors('environment'));
  const config: Config = {
    dataDir,
    host,
    // A public name faces the internet: every address, unless the operator names one.
    listenHost: file.listen_host ?? (!tls && (host === '127.0.0.1' || host === 'localhost') ? '127.0.0.1' : '0.0.0.0'),
    ports,
    apiWorkers: file.api_workers ?? defaultApiWorkers(),
    trustedProxies: file.trusted_proxies ?? [],
    metrics: { host: file.metrics_host ?? '127.0.0.1', port: file.metrics_port ?? null },
    databaseUrl: merged.database_url ?? null,
    postgresBinDir: file.postgres_bin_dir ?? null,
    publicUrls: {
      ...urls,
      // The API serves WHIP: under the API's public address (https with TLS, or behind the operator's proxy).
      whip_url: file.public_urls?.whip_url ?? `${urls.base_url.replace(/\/$/, '')}/live`,
    },
    tls,
    allowPrivateWebhooks: file.allow_private_webhooks ?? false,
    allowPrivateOutputs: file.allow_private_outputs ?? false,
    outputCaFile: file.output_ca_file ?? SYSTEM_CA_FILE,
    storage: storageConfig(file.storage ?? null),
    logLevel: merged.log_level ?? 'info',
    reservationSeconds: file.reservation_seconds ?? 1800,
    expiryCheckSeconds: file.expiry_check_seconds ?? 5,
    limits: {
      new: { ...DEFAULT_LIMITS.new, ...file.limits?.new },
      trusted: { ...DEFAULT_LIMITS.trusted, ...file.limits?.trusted },
    },
    live: liveSettings(file, env.FFMPEG_PATH),
    node: {
      id: file.node?.id ?? null,
      name: file.node?.name ?? null,
      role: file.node?.role ?? 'primary',
      originUrl: file.node?.origin_url ?? null,
    },
    capacity: {
      cores: file.capacity?.cores ?? availableParallelism(),
      reservedCores: file.capacity?.reserved_cores ?? 0.3,
      streamCost: { ...DEFAULT_STREAM_COST, ...file.capacity?.stream_cost },
    },
    recordings: { ...DEFAULT_RECORDINGS, ...file.recordings },
    viewers: { ...DEFAULT_VIEWERS, ...file.viewers },
    logs: { ...DEFAULT_LOGS, ...file.logs },
    billing: { ...DEFAULT_BILLING, ...file.billing, rates: { ...DEFAULT_BILLING.rates, ...file.billing?.rates } },
    cdn: { ...DEFAULT_CDN, ...file.cdn },
    whip: { ...DEFAULT_WHIP, ice_addresses: IPV4.test(host) ? [host] : [], ...file.whip },
    srt: { ...DEFAULT_SRT, ...file.srt },
    chat: { ...DEFAULT_CHAT_CONFIG, ...file.chat },
  };
  if (config.whip.udp_port_min > config.whip.udp_port_max)
    throw new ConfigError('config.json: "whip.udp_port_min" is above "whip.udp_port_max"');
  if (config.srt.port_min > config.srt.port_max)
    throw new ConfigError('config.json: "srt.port_min" is above "srt.port_max"');
  return deepFreeze(config);
}

/**
 * 20 GB of spool: two hours of a 20 Mbit/s publisher's sessions plus their recording, the longest
 * outage an operator should sit through; a 10-s piece loses at most 10 s when a node dies.
 */
export const DEFAULT_STORAGE = { spoolMaxMb: 20_480, sliceSeconds: 10, retryMaxSeconds: 30, timeoutSeconds: 30 };

function storageConfig(file: StorageSettings | null): StorageConfig | null {
  if (!file) return null;
  return {
    kind: 's3',
    endpoint: file.endpoint?.replace(/\/$/, '') ?? null,
    region: file.region,
    bucket: file.bucket,
    forcePathStyle: file.force_path_style ?? false,
    prefix: file.prefix ?? '',
    spoolMaxBytes: (file.spool_max_mb ?? DEFAULT_STORAGE.spoolMaxMb) * 1024 * 1024,
    sliceSeconds: file.slice_seconds ?? DEFAULT_STORAGE.sliceSeconds,
    retryMaxSeconds: file.retry_max_seconds ?? DEFAULT_STORAGE.retryMaxSeconds,
    timeoutSeconds: file.timeout_seconds ?? DEFAULT_STORAGE.timeoutSeconds,
  };
}

/**
 * The settings again as config.json holds them, defaults left out: what a joining node is given
 * (`svc node join`), so that its file reads like the primary's.
 */
export function storageSettings(config: StorageConfig): StorageSettings {
  const unlessDefault = <K extends string>(key: K, value: number, byDefault: number) =>
    value === byDefault ? {} : ({ [key]: value } as Record<K, number>);
  return {
    kind: 's3',
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    region: config.region,
    bucket: config.bucket,
    force_path_style: config.forcePathStyle,
    ...(config.prefix ? { prefix: config.prefix } : {}),
    ...unlessDefault('spool_max_mb', Math.round(config.spoolMaxBytes / (1024 * 1024)), DEFAULT_STORAGE.spoolMaxMb),
    ...unlessDefault('slice_seconds', config.sliceSeconds, DEFAULT_STORAGE.sliceSeconds),
    ...unlessDefault('retry_max_seconds', config.retryMaxSeconds, DEFAULT_STORAGE.retryMaxSeconds),
    ...unlessDefault('timeout_seconds', config.timeoutSeconds, DEFAULT_STORAGE.timeoutSeconds),
  };
}

type Ports = Config['ports'];

/**
 * Where edges fetch from: the origin's own CDN port under the API's name (`cdn_url` may name the
 * edges themselves; docs/decisions.md, "Edge tier").
 */
export function originCdnUrl(config: Pick<Config, 'host' | 'ports' | 'tls'>): string {
  return config.tls ? `https://${config.tls.domain}:${config.ports.cdn}` : `http://${config.host}:${config.ports.cdn}`;
}

function plainUrls(host: string, ports: Ports): Omit<PublicUrls, 'whip_url'> {
  return {
    base_url: `http://${host}:${ports.api}`,
    player_url: `http://${host}:${ports.player}`,
    cdn_url: `http://${host}:${ports.cdn}`,
    rtmp_url: `rtmp://${host}:${ports.rtmp}/live`,
    srt_host: host,
  };
}

/** A name of its own is served on the https port; one shared with the API keeps its surface's port. */
function tlsUrls(tls: TlsConfig, ports: Ports): Omit<PublicUrls, 'whip_url'> {
  const https = (name: string, port: number) => `https://${name}${port === 443 ? '' : `:${port}`}`;
  const own = (name: string, port: number) => https(name, name === tls.domain ? port : tls.ports.https);
  return {
    base_url: https(tls.domain, tls.ports.https),
    player_url: own(tls.playerDomain, ports.player),
    cdn_url: own(tls.cdnDomain, ports.cdn),
    rtmp_url: `rtmps://${tls.domain}:${tls.ports.rtmps}/live`,
    srt_host: tls.domain,
  };
}

/** Where a certificate comes from, ACME or the operator's files: exactly one (config.json's `tls`, an edge's). */
export function certificateSource(
  file: Pick<TlsSettings, 'acme' | 'certificate_file' | 'key_file'>,
  where: string,
): Pick<TlsConfig, 'acme' | 'files'> {
  const hasFiles = file.certificate_file !== undefined || file.key_file !== undefined;
  if (file.acme && hasFiles)
    throw new ConfigError(`${where}: "tls" has both "acme" and "certificate_file": keep one of them`);
  if (!file.acme && !hasFiles)
    throw new ConfigError(
      `${where}: "tls" needs "acme" (an email, for Let's Encrypt) or "certificate_file" and "key_file"`,
    );
  if (hasFiles && (file.certificate_file === undefined || file.key_file === undefined))
    throw new ConfigError(`${where}: "tls" needs both "certificate_file" and "key_file"`);
  return {
    acme: file.acme
      ? {
          email: file.acme.email,
          directoryUrl: file.acme.directory_url ?? LETS_ENCRYPT_DIRECTORY,
          caFile: file.acme.ca_file ?? null,
          renewBeforeDays: file.acme.renew_before_days ?? DEFAULT_TLS.renewBeforeDays,
          retrySeconds: file.acme.retry_seconds ?? DEFAULT_TLS.retrySeconds,
        }
      : null,
    files: file.certificate_file && file.key_file ? { certificate: file.certificate_file, key: file.key_file } : null,
  };
}

function tlsConfig(file: TlsSettings | null, ports: Ports): TlsConfig | null {
  if (!file) return null;
  const source = certificateSource(file, 'config.json');
  const domain = file.domain.toLowerCase();
  const playerDomain = file.player_domain?.toLowerCase() ?? domain;
  const cdnDomain = file.cdn_domain?.toLowerCase() ?? domain;
  const tlsPorts = {
    ...DEFAULT_TLS.ports,
    ...dropUndefined({
      https: file.https_port,
      http: file.http_port,
      rtmps: file.rtmps_port,
      rtmps_relay: file.rtmps_relay_port,
    }),
  };
  const taken = [
    ['api_port', ports.api],
    ['rtmp_port', ports.rtmp],
    ['cdn_port', ports.cdn],
    ['player_port', ports.player],
    ['tls.https_port', tlsPorts.https],
    ['tls.http_port', tlsPorts.http],
    ['tls.rtmps_port', tlsPorts.rtmps],
    ['tls.rtmps_relay_port', tlsPorts.rtmps_relay],
  ] as const;
  for (const [i, [name, port]] of taken.entries()) {
    const clash = taken.slice(i + 1).find(([, other]) => other === port);
    if (clash)
      throw new ConfigError(`config.json: "${name}" and "${clash[0]}" are both ${port}: give each its own port`);
  }
  return {
    domain,
    playerDomain,
    cdnDomain,
    names: [...new Set([domain, playerDomain, cdnDomain])],
    ports: tlsPorts,
    ...source,
    warnDays: file.warn_days ?? DEFAULT_TLS.warnDays,
    checkSeconds: file.check_seconds ?? DEFAULT_TLS.checkSeconds,
  };
}

const dropUndefined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };

/**
 * None below 4 cores: on 2 cores the API bench read no faster through nginx and two workers (they,
 * PostgreSQL and the clients share the same cores) and its p99 was worse (docs/decisions.md, The
 * read path). Above, half the cores (PostgreSQL and nginx need the rest), at most 4: each worker
 * holds up to 11 PostgreSQL connections (a pool of 6, its transactions' 3, its monitor and its
 * LISTEN), and the managed cluster allows 100 in all.
 */
export const defaultApiWorkers = (cores = availableParallelism()): number =>
  cores < 4 ? 0 : Math.min(Math.floor(cores / 2), 4);

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

function liveSettings(file: ConfigFile, ffmpegPath: string | undefined): LiveSettings {
  const live = { ...DEFAULT_LIVE, ...file.live };
  // FFMPEG_PATH wins over the file, as design.md says; ffprobe sits beside it unless set.
  if (ffmpegPath) {
    live.ffmpeg_path = ffmpegPath;
    if (!file.live?.ffprobe_path) live.ffprobe_path = join(dirname(ffmpegPath), 'ffprobe');
  }
  return live;
}

/** Where this machine reaches its own services: loopback when they listen on every address. */
export const localHost = (config: Pick<Config, 'listenHost'>): string =>
  ['0.0.0.0', '::'].includes(config.listenHost) ? '127.0.0.1' : config.listenHost;

/** The same, ready for a URL (IPv6 in brackets). */
export const localUrlHost = (config: Pick<Config, 'listenHost'>): string => {
  const host = localHost(config);
  return host.includes(':') ? `[${host}]` : host;
};

/** This machine's own way to its API: plain http on loopback (with TLS too: nginx serves https only to the world). */
export const localApiUrl = (config: Pick<Config, 'listenHost' | 'ports'>): string =>
  `http://${localUrlHost(config)}:${config.ports.api}`;

/** Where Prometheus scrapes this node (docs/operations.md, Metrics); null: no metrics listener. */
export function metricsUrl(config: Pick<Config, 'metrics'>): string | null {
  const { host, port } = config.metrics;
  if (port === null) return null;
  const reached = localUrlHost({ listenHost: host });
  return `http://${reached}:${port}/metrics`;
}

export function loadConfig(dataDir: string, env: ConfigEnv = {}): Config {
  const file = readConfigFile(dataDir);
  if (!file) throw new ConfigError(`${dataDir} is not initialised: run \`svc init --data-dir ${dataDir}\``);
  return resolveConfig(dataDir, file, env);
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
