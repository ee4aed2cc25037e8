import { join } from 'node:path';
import type { EdgeConfig, EdgeSecrets } from '../../config/edge.js';
import { dataPaths, type NjsScript } from '../../config/paths.js';
import { templateEnvironment } from '../../core/resources.js';
import { GEOIP_MODULE, JS_MODULE, NGINX_MODULES, TLS_CIPHERS } from './config.js';

/** An edge's modules: the geoip and njs ones of the origin's list; no nginx-rtmp. */
export const EDGE_MODULES = NGINX_MODULES.filter((m) => m.file === GEOIP_MODULE || m.file === JS_MODULE);

/** The njs scripts an edge's config loads (NJS_SCRIPTS says which file each is). */
export const EDGE_NJS_SCRIPTS: readonly NjsScript[] = ['cdnViewerScript', 'publicLinkScript', 'edgePlaylistAgeScript'];

/** A recording goes through an edge in slices of this size (one origin fetch and one cache entry each). */
export const RECORDING_SLICE = '1m';

export interface EdgeNginxInput {
  config: Pick<
    EdgeConfig,
    | 'dataDir'
    | 'listenHost'
    | 'cdnPort'
    | 'originCdnUrl'
    | 'originCaFile'
    | 'cacheMaxMb'
    | 'nginxWorkers'
    | 'countryTable'
    | 'originApiUrl'
    | 'tls'
  >;
  secrets: EdgeSecrets;
  /** The geoip country database (geoipDatabase()). */
  geoipDatabase: string;
  /** Who nginx's workers run as when the edge is root; null keeps the edge's user. */
  user: string | null;
}

/** The origin as nginx's upstream names it: `host:port` (the port spelled out), and the Host header. */
export function originServer(url: string): { scheme: 'http' | 'https'; server: string; host: string; tlsName: string } {
  const u = new URL(url);
  const scheme = u.protocol === 'https:' ? 'https' : 'http';
  const port = u.port || (scheme === 'https' ? '443' : '80');
  return { scheme, server: `${u.hostname}:${port}`, host: u.host, tlsName: u.hostname.replace(/^\[|\]$/g, '') };
}

/** Keys zone: 1 MB holds about 8,000 keys; one per 16 MB of cache is plenty for segments of 1 MB and more. */
const keysMb = (maxMb: number) => Math.max(4, Math.ceil(maxMb / 16 / 8));

/** The text of templates/nginx/edge.conf.njk for these values: no clock, no lookups, nothing written. */
export function renderEdgeNginxConfig({ config, secrets, geoipDatabase, user }: EdgeNginxInput): string {
  const paths = dataPaths(config.dataDir);
  const origin = originServer(config.originCdnUrl);
  const api = originServer(config.originApiUrl);
  const tls = config.tls;
  return templateEnvironment('config').render('nginx/edge.conf.njk', {
    modules: EDGE_MODULES.map((m) => m.file),
    user,
    workers: config.nginxWorkers,
    listen_host: config.listenHost.includes(':') ? `[${config.listenHost}]` : config.listenHost,
    cdn_port: config.cdnPort,
    origin: { ...origin, tls_name: origin.tlsName, ca_file: config.originCaFile },
    credential: secrets.credential,
    secret: secrets.cdn_secret,
    viewer_key: secrets.viewer_key,
    geoip_database: geoipDatabase,
    country_table: config.countryTable,
    origin_api: { ...api, tls_name: api.tlsName },
    tls: tls && {
      https_port: tls.ports.https,
      https_suffix: tls.ports.https === 443 ? '' : `:${tls.ports.https}`,
      // The viewer port redirects too (a viewer's old http address), once if it is the http port.
      plain_ports: [...new Set([tls.ports.http, config.cdnPort])],
      certificate: paths.tlsCertificate,
      challenges: paths.acmeChallenges,
      ciphers: TLS_CIPHERS,
    },
    cache: { max_mb: config.cacheMaxMb, keys_mb: keysMb(config.cacheMaxMb), slice: RECORDING_SLICE },
    paths: {
      pid: paths.nginxPid,
      temp: join(paths.nginx, 'temp'),
      control: paths.nginxControl,
      cdn_log: paths.cdnLog,
      viewer_script: paths.cdnViewerScript,
      playlist_age_script: paths.edgePlaylistAgeScript,
      public_link_script: paths.publicLinkScript,
      public_refused: paths.publicRefused,
      cache: paths.nginxCache,
    },
  });
}
