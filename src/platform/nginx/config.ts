import { bucketOrigin } from '../storage/s3-store.js';
import { join } from 'node:path';
import { localHost, localUrlHost, type Config } from '../../config/config.js';
import { dataPaths, NJS_SCRIPTS, type NjsScript } from '../../config/paths.js';
import { shippedFile, templateEnvironment } from '../../core/resources.js';

export const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';
/** Countries of CDN viewers (`geoip_country`). */
export const GEOIP_MODULE = '/usr/lib/nginx/modules/ngx_http_geoip_module.so';
/** njs: the CDN log's viewer ids and media playlists' ages (`js_set`). */
export const JS_MODULE = '/usr/lib/nginx/modules/ngx_http_js_module.so';
/** TLS in front of nginx-rtmp (RTMPS), loaded only when TLS is on. */
export const STREAM_MODULE = '/usr/lib/nginx/modules/ngx_stream_module.so';
/** Each module nginx loads and the Debian package that has it. */
export const NGINX_MODULES: readonly { file: string; pkg: string }[] = [
  { file: RTMP_MODULE, pkg: 'libnginx-mod-rtmp' },
  { file: GEOIP_MODULE, pkg: 'libnginx-mod-http-geoip' },
  { file: JS_MODULE, pkg: 'libnginx-mod-http-js' },
];
export const TLS_MODULES: readonly { file: string; pkg: string }[] = [
  { file: STREAM_MODULE, pkg: 'libnginx-mod-stream' },
];

/** The modules a config needs. */
export const nginxModules = (config: Pick<Config, 'tls'>) => [...NGINX_MODULES, ...(config.tls ? TLS_MODULES : [])];

/** Mozilla's "intermediate" list (TLS 1.2's AEAD suites with forward secrecy; 1.3's are OpenSSL's own). */
export const TLS_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** Debian's geoip-database: the IPv6 file answers for IPv4 addresses too (as mapped addresses). */
export const GEOIP_COUNTRY_V4 = '/usr/share/GeoIP/GeoIP.dat';
export const GEOIP_COUNTRY_V6 = '/usr/share/GeoIP/GeoIPv6.dat';

/** The njs scripts the origin's config loads (NJS_SCRIPTS says which file each is). */
export const ORIGIN_NJS_SCRIPTS: readonly NjsScript[] = [
  'cdnViewerScript',
  'playlistAgeScript',
  'publicLinkScript',
  'originAuthScript',
  'queryTokenScript',
];

/** Each script a config loads and where it loads it from: copied there before nginx starts. */
export const njsScripts = (
  paths: ReturnType<typeof dataPaths>,
  names: readonly NjsScript[] = ORIGIN_NJS_SCRIPTS,
): [from: string, to: string][] => names.map((name) => [shippedFile('nginx', NJS_SCRIPTS[name]), paths[name]]);

/** An edge's log batch may be this large (the API route's own limit, LOG_BODY_LIMIT, is 8 MiB). */
const EDGE_LOG_BODY_LIMIT = '8m';

/**
 * How long an edge may keep a segment: twice the playlist's window and a minute (the origin keeps
 * it at least as long as a playlist can name it).
 */
export const edgeSegmentSeconds = (live: Pick<Config['live'], 'segment_seconds' | 'window_segments'>): number =>
  live.segment_seconds * live.window_segments * 2 + 60;

/** Everything the nginx config is made from; the caller looks up the worker user. */
export interface NginxConfigInput {
  config: Pick<Config, 'dataDir' | 'listenHost' | 'ports' | 'tls' | 'trustedProxies'> & {
    storage?: Pick<NonNullable<Config['storage']>, 'endpoint' | 'region' | 'bucket' | 'forcePathStyle'> | null;
  } & {
    publicUrls: Pick<Config['publicUrls'], 'whip_url'>;
  } & {
    live: Pick<Config['live'], 'idle_publisher_seconds' | 'segment_seconds' | 'window_segments'>;
    cdn: Pick<Config['cdn'], 'country_table' | 'direct_viewers'>;
  };
  /** CDN signing secret (written into the config, which is therefore mode 0600). */
  secret: string;
  /** Key of the CDN log's viewer ids (a keyed hash of address and user agent). */
  viewerKey: string;
  /** Key of edges' credentials (`edgeKey`), checked on their fetches. */
  edgeKey: string;
  /** Key of ingest nodes' credentials (`nodeKey`), checked on their media writes. */
  nodeKey: string;
  /** The geoip country database (GEOIP_COUNTRY_V6 where installed, else GEOIP_COUNTRY_V4). */
  geoipDatabase: string;
  /** Base of the ingest hooks on the API, on loopback. */
  hooksUrl: string;
  /** Where the API processes listen on loopback (see apiListeners). */
  api: ApiListeners;
  /** Who nginx's workers run as when the appliance is root; null keeps the appliance's user. */
  user: string | null;
}

/**
 * Where the API is served (docs/decisions.md, The read path). Without workers the appliance's
 * own process listens on `api_port` itself; with them, nginx does, and passes what needs the
 * appliance's in-process state to `mainPort` and the rest to the workers' ports, all on loopback.
 */
export interface ApiListeners {
  mainPort: number;
  workerPorts: number[];
}

/** The text of templates/nginx/nginx.conf.njk for these values: no clock, no lookups, nothing written. */
export function renderNginxConfig({
  config,
  secret,
  viewerKey,
  edgeKey,
  nodeKey,
  geoipDatabase,
  hooksUrl,
  api,
  user,
}: NginxConfigInput): string {
  const paths = dataPaths(config.dataDir);
  return templateEnvironment('config').render('nginx/nginx.conf.njk', {
    modules: nginxModules(config).map((m) => m.file),
    user,
    listen_host: config.listenHost,
    local_host: localHost(config),
    trusted_proxies: config.trustedProxies,
    rtmp_port: config.ports.rtmp,
    cdn_port: config.ports.cdn,
    player_port: config.ports.player,
    api_port: config.ports.api,
    api: `${localUrlHost(config)}:${api.mainPort}`,
    api_workers: api.workerPorts.map((port) => `${localUrlHost(config)}:${port}`),
    whip_path: new URL(config.publicUrls.whip_url).pathname.replace(/\/$/, ''),
    idle_publisher_seconds: config.live.idle_publisher_seconds,
    hooks: hooksUrl,
    hooks_path: new URL(hooksUrl).pathname,
    storage: config.storage ? bucketAddress(config.storage) : null,
    secret,
    viewer_key: viewerKey,
    edge_key: edgeKey,
    node_key: nodeKey,
    edge_segment_seconds: edgeSegmentSeconds(config.live),
    edge_log_body_limit: EDGE_LOG_BODY_LIMIT,
    direct_viewers: config.cdn.direct_viewers,
    geoip_database: geoipDatabase,
    tls: config.tls && {
      domain: config.tls.domain,
      player_domain: config.tls.playerDomain,
      cdn_domain: config.tls.cdnDomain,
      player_named: config.tls.playerDomain !== config.tls.domain,
      cdn_named: config.tls.cdnDomain !== config.tls.domain,
      https_port: config.tls.ports.https,
      https_suffix: config.tls.ports.https === 443 ? '' : `:${config.tls.ports.https}`,
      http_port: config.tls.ports.http,
      rtmps_port: config.tls.ports.rtmps,
      rtmps_relay: `${localUrlHost(config)}:${config.tls.ports.rtmps_relay}`,
      certificate: paths.tlsCertificate,
      challenges: paths.acmeChallenges,
      ciphers: TLS_CIPHERS,
    },
    country_table: config.cdn.country_table,
    paths: {
      pid: paths.nginxPid,
      temp: join(paths.nginx, 'temp'),
      control: paths.nginxControl,
      cdn_log: paths.cdnLog,
      viewer_script: paths.cdnViewerScript,
      playlist_age_script: paths.playlistAgeScript,
      public_link_script: paths.publicLinkScript,
      origin_auth_script: paths.originAuthScript,
      edges_allowed: paths.edgesAllowed,
      nodes_allowed: paths.nodesAllowed,
      media: paths.media,
      query_token_script: paths.queryTokenScript,
      public_refused: paths.publicRefused,
      ingest: paths.ingest,
      origin: paths.origin,
      recordings: paths.recordings,
      thumbs: paths.thumbs,
      cache: paths.nginxCache,
    },
  });
}

/** Where nginx fetches a recording from the bucket: the host of its presigned addresses. */
function bucketAddress(storage: Parameters<typeof bucketOrigin>[0]) {
  const url = new URL(bucketOrigin(storage));
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  // The Host header is the presigned address's own (its port only when not the scheme's default).
  return {
    scheme: url.protocol.slice(0, -1),
    server: `${url.hostname}:${port}`,
    host: url.host,
    hostname: url.hostname,
  };
}

/**
 * The nginx argv (without the binary) for a config: errors to stderr (the supervisor logs them)
 * from the first line, before the config names its own log; `test` checks the file and exits.
 */
export function nginxArgs(prefix: string, conf: string, opts: { test?: boolean } = {}): string[] {
  return [...(opts.test ? ['-t', '-q'] : []), '-e', 'stderr', '-p', prefix, '-c', conf];
}
