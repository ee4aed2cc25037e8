import { hostname } from 'node:os';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import {
  certificateSource,
  ConfigError,
  DEFAULT_TLS,
  describeSchemaErrors,
  refuseBrowserBlockedPorts,
  type TlsConfig,
} from './config.js';
import { dataPaths } from './paths.js';
import { AcmeSettings, CountryTable, DomainName } from './schema.js';

/**
 * An edge's two files (docs/operations.md, "Edges"), written by `svc edge join` and read at every
 * `svc edge up`: `edge.json` (what an operator may change) and `edge-secrets.json` (0600: what the
 * origin gave at join). Unknown keys are refused, as in config.json.
 */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const HttpUrl = Type.String({ minLength: 1, maxLength: 2000, pattern: '^https?://[^/?#]+$' });

/**
 * HTTPS for viewers (docs/decisions.md, "Edges over https"): the name viewers use (shared by every
 * edge behind one `cdn_url`), and a certificate from ACME or the operator's files.
 */
const EdgeTlsSchema = Type.Object(
  {
    domain: DomainName,
    acme: Type.Optional(AcmeSettings),
    certificate_file: Type.Optional(Type.String({ minLength: 1 })),
    key_file: Type.Optional(Type.String({ minLength: 1 })),
    /** Where viewers reach the signed locations over https. */
    https_port: Type.Optional(Port),
    /** ACME's http-01 challenges and the redirect to https (as `cdn_port` then does). */
    http_port: Type.Optional(Port),
    warn_days: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 365 })),
    check_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  },
  { additionalProperties: false },
);

export const EdgeFileSchema = Type.Object(
  {
    edge_id: Type.String({ pattern: '^edg_[a-z0-9]{20}$' }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    /** The origin's API (`svc edge join`'s argument), for the heartbeat and the log. */
    origin_api_url: HttpUrl,
    /** The origin's CDN port, where the edge fetches what it caches (from the join's answer). */
    origin_cdn_url: HttpUrl,
    /** Where viewers reach this edge. */
    listen_host: Type.String({ minLength: 1, maxLength: 253 }),
    cdn_port: Port,
    /** The disk the cache may take; nginx drops the least recently used objects past it. */
    cache_max_mb: Type.Optional(Type.Integer({ minimum: 16, maximum: 10_000_000 })),
    /** How often the access log goes to the origin. */
    log_ship_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
    heartbeat_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 60 })),
    /** The access log is rotated past this size (by its reader, as on the origin). */
    log_max_bytes: Type.Optional(Type.Integer({ minimum: 4096 })),
    /** nginx's workers; "auto": one per core. */
    nginx_workers: Type.Optional(Type.Union([Type.Literal('auto'), Type.Integer({ minimum: 1, maximum: 64 })])),
    nginx_path: Type.Optional(Type.String({ minLength: 1 })),
    /** PEM bundle trusted for an https origin (default: the system's). */
    origin_ca_file: Type.Optional(Type.String({ minLength: 1 })),
    log_level: Type.Optional(Type.Union(LOG_LEVELS.map((l) => Type.Literal(l)))),
    country_table: Type.Optional(CountryTable),
    /** The origin's live settings at join (shown by `svc edge status`; the origin's headers rule). */
    segment_seconds: Type.Optional(Type.Integer({ minimum: 1 })),
    window_segments: Type.Optional(Type.Integer({ minimum: 1 })),
    /** Absent or null: plain http on `cdn_port`. */
    tls: Type.Optional(Type.Union([EdgeTlsSchema, Type.Null()])),
  },
  { additionalProperties: false },
);

export const EdgeSecretsSchema = Type.Object(
  {
    /** `<edge_id>.<mac>`: on CDN fetches (`X-Svc-Edge`) and API calls (`Authorization: Bearer`). */
    credential: Type.String({ minLength: 1, maxLength: 200 }),
    /** The origin's CDN signing secret: the edge checks viewers' addresses itself. */
    cdn_secret: Type.String({ minLength: 1, maxLength: 200 }),
    /** The origin's viewer-id key: a viewer has the same id on every edge. */
    viewer_key: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

export type EdgeFile = Static<typeof EdgeFileSchema>;
export type EdgeTlsFile = Static<typeof EdgeTlsSchema>;
export type EdgeSecrets = Static<typeof EdgeSecretsSchema>;

/** The edge's settings with every default filled in, frozen. */
export interface EdgeConfig {
  dataDir: string;
  edgeId: string;
  name: string;
  originApiUrl: string;
  originCdnUrl: string;
  listenHost: string;
  cdnPort: number;
  cacheMaxMb: number;
  logShipSeconds: number;
  heartbeatSeconds: number;
  logMaxBytes: number;
  nginxWorkers: 'auto' | number;
  nginxPath: string;
  /** For an https origin; null with plain http. */
  originCaFile: string | null;
  logLevel: string;
  countryTable: Record<string, string>;
  /** null: plain http on `cdnPort`. */
  tls: EdgeTlsConfig | null;
}

/** An edge's https: the origin's certificate settings (one name), its https and http ports. */
export interface EdgeTlsConfig extends Pick<
  TlsConfig,
  'domain' | 'names' | 'acme' | 'files' | 'warnDays' | 'checkSeconds'
> {
  ports: { https: number; http: number };
}

/** The system's CA bundle (Debian's ca-certificates). */
export const SYSTEM_CA_FILE = '/etc/ssl/certs/ca-certificates.crt';

/** 1 GB of cache holds about 15 minutes of one 1080p ladder; shipped every 2 s, a beat every 5 s. */
export const EDGE_DEFAULTS = {
  cacheMaxMb: 1024,
  logShipSeconds: 2,
  heartbeatSeconds: 5,
  logMaxBytes: 50 * 1024 * 1024,
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
const validateEdgeFile = ajv.compile<EdgeFile>(EdgeFileSchema);
const validateEdgeSecrets = ajv.compile<EdgeSecrets>(EdgeSecretsSchema);

function readJson<T>(path: string, validate: ValidateFunction<T>, what: string): T {
  if (!existsSync(path)) throw new ConfigError(`${path} is missing: ${what}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${path} is not valid JSON (${(err as Error).message})`);
  }
  if (!validate(parsed)) throw new ConfigError(describeSchemaErrors(path, validate.errors ?? []));
  return parsed;
}

/** Validated, then replaced atomically (a half-written file would stop the next start); 0600. */
function writeJson<T extends TSchema>(path: string, value: Static<T>, validate: ValidateFunction<Static<T>>): void {
  if (!validate(value)) throw new ConfigError(describeSchemaErrors(path, validate.errors ?? []));
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

const JOIN_FIRST = 'join an origin first: `svc edge join <origin-api-url> --token <token>`';

export const isEdgeDataDir = (dataDir: string): boolean => existsSync(dataPaths(dataDir).edgeConfig);

export const readEdgeFile = (dataDir: string): EdgeFile =>
  readJson(dataPaths(dataDir).edgeConfig, validateEdgeFile, JOIN_FIRST);

export const readEdgeSecrets = (dataDir: string): EdgeSecrets =>
  readJson(dataPaths(dataDir).edgeSecrets, validateEdgeSecrets, JOIN_FIRST);

export function writeEdgeFiles(dataDir: string, file: EdgeFile, secrets: EdgeSecrets): void {
  const paths = dataPaths(dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // The secrets first: an edge.json without them would look joined.
  writeJson<typeof EdgeSecretsSchema>(paths.edgeSecrets, secrets, validateEdgeSecrets);
  writeJson<typeof EdgeFileSchema>(paths.edgeConfig, file, validateEdgeFile);
}

export function resolveEdgeConfig(
  dataDir: string,
  file: EdgeFile,
  env: { SVC_LOG_LEVEL?: string | undefined } = {},
): EdgeConfig {
  if (env.SVC_LOG_LEVEL !== undefined && !LOG_LEVELS.includes(env.SVC_LOG_LEVEL))
    throw new ConfigError(`SVC_LOG_LEVEL "${env.SVC_LOG_LEVEL}" is not one of ${LOG_LEVELS.join(', ')}`);
  refuseBrowserBlockedPorts('edge.json', [['cdn_port', file.cdn_port]]);
  const https = file.origin_cdn_url.startsWith('https://');
  return Object.freeze({
    dataDir,
    edgeId: file.edge_id,
    name: file.name,
    originApiUrl: file.origin_api_url,
    originCdnUrl: file.origin_cdn_url,
    listenHost: file.listen_host,
    cdnPort: file.cdn_port,
    cacheMaxMb: file.cache_max_mb ?? EDGE_DEFAULTS.cacheMaxMb,
    logShipSeconds: file.log_ship_seconds ?? EDGE_DEFAULTS.logShipSeconds,
    heartbeatSeconds: file.heartbeat_seconds ?? EDGE_DEFAULTS.heartbeatSeconds,
    logMaxBytes: file.log_max_bytes ?? EDGE_DEFAULTS.logMaxBytes,
    nginxWorkers: file.nginx_workers ?? 'auto',
    nginxPath: file.nginx_path ?? 'nginx',
    originCaFile: https ? (file.origin_ca_file ?? SYSTEM_CA_FILE) : null,
    logLevel: env.SVC_LOG_LEVEL ?? file.log_level ?? 'info',
    countryTable: Object.freeze({ ...file.country_table }),
    tls: edgeTls(file),
  });
}

const validateEdgeTls = ajv.compile<EdgeTlsFile>(EdgeTlsSchema);

/** `tls` as `svc edge join` would write it, checked before the join spends its token. */
export function checkEdgeTls(tls: EdgeTlsFile, cdnPort: number): EdgeTlsConfig {
  if (!validateEdgeTls(tls))
    throw new ConfigError(
      describeSchemaErrors(
        'edge.json',
        (validateEdgeTls.errors ?? []).map((e) => ({ ...e, instancePath: `/tls${e.instancePath}` })),
      ),
    );
  return edgeTls({ tls, cdn_port: cdnPort }) as EdgeTlsConfig;
}

function edgeTls(file: Pick<EdgeFile, 'tls' | 'cdn_port'>): EdgeTlsConfig | null {
  const tls = file.tls;
  if (!tls) return null;
  const ports = { https: tls.https_port ?? DEFAULT_TLS.ports.https, http: tls.http_port ?? DEFAULT_TLS.ports.http };
  refuseBrowserBlockedPorts('edge.json', [
    ['tls.https_port', ports.https],
    ['tls.http_port', ports.http],
  ]);
  // The viewer port may be the http port (both redirect to https); https needs one of its own.
  for (const [name, port] of [
    ['cdn_port', file.cdn_port],
    ['tls.http_port', ports.http],
  ] as const)
    if (port === ports.https)
      throw new ConfigError(`edge.json: "tls.https_port" and "${name}" are both ${port}: give https its own port`);
  const domain = tls.domain.toLowerCase();
  return {
    domain,
    names: [domain],
    ports,
    ...certificateSource(tls, 'edge.json'),
    warnDays: tls.warn_days ?? DEFAULT_TLS.warnDays,
    checkSeconds: tls.check_seconds ?? DEFAULT_TLS.checkSeconds,
  };
}

export const loadEdgeConfig = (dataDir: string, env: { SVC_LOG_LEVEL?: string | undefined } = {}): EdgeConfig =>
  resolveEdgeConfig(dataDir, readEdgeFile(dataDir), env);

/** Where an edge says viewers reach it (shown to the origin's operator): its host name when it listens on every address. */
export const edgeAddress = (config: Pick<EdgeConfig, 'listenHost' | 'cdnPort'>): string =>
  `${['0.0.0.0', '::'].includes(config.listenHost) ? hostname() : config.listenHost}:${config.cdnPort}`;
