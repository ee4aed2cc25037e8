import { join } from 'node:path';
import nunjucks from 'nunjucks';
import { localHost, localUrlHost, type Config } from '../../config/config.js';
import { dataPaths } from '../../config/paths.js';
import { packageRoot } from '../../core/package-root.js';

export const RTMP_MODULE = '/usr/lib/nginx/modules/ngx_rtmp_module.so';

/** Everything the nginx config is made from; the caller looks up the worker user. */
export interface NginxConfigInput {
  config: Pick<Config, 'dataDir' | 'listenHost' | 'ports'> & { live: Pick<Config['live'], 'idle_publisher_seconds'> };
  /** CDN signing secret (written into the config, which is therefore mode 0600). */
  secret: string;
  /** Base of the ingest hooks on the API, on loopback. */
  hooksUrl: string;
  /** Who nginx's workers run as when the appliance is root; null keeps the appliance's user. */
  user: string | null;
}

/** The text of templates/nginx.conf.njk for these values: no clock, no lookups, nothing written. */
export function renderNginxConfig({ config, secret, hooksUrl, user }: NginxConfigInput): string {
  const paths = dataPaths(config.dataDir);
  const env = new nunjucks.Environment(new nunjucks.FileSystemLoader(join(packageRoot, 'templates')), { autoescape: false, throwOnUndefined: true });
  return env.render('nginx.conf.njk', {
    modules: [RTMP_MODULE],
    user,
    listen_host: config.listenHost,
    local_host: localHost(config),
    rtmp_port: config.ports.rtmp,
    cdn_port: config.ports.cdn,
    player_port: config.ports.player,
    api: `${localUrlHost(config)}:${config.ports.api}`,
    idle_publisher_seconds: config.live.idle_publisher_seconds,
    hooks: hooksUrl,
    secret,
    paths: {
      pid: paths.nginxPid,
      temp: join(paths.nginx, 'temp'),
      control: paths.nginxControl,
      cdn_log: paths.cdnLog,
      ingest: paths.ingest,
      origin: paths.origin,
      recordings: paths.recordings,
      thumbs: paths.thumbs,
      cache: paths.nginxCache,
    },
  });
}

/**
 * The nginx argv (without the binary) for a config: errors to stderr (the supervisor logs them)
 * from the first line, before the config names its own log; `test` checks the file and exits.
 */
export function nginxArgs(prefix: string, conf: string, opts: { test?: boolean } = {}): string[] {
  return [...(opts.test ? ['-t', '-q'] : []), '-e', 'stderr', '-p', prefix, '-c', conf];
}
