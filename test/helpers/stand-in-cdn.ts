import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { freePort } from './ports.js';
import { waitFor } from './publisher.js';

export interface StandInCdn {
  /** What viewers are given as `cdn_url`. */
  url: string;
  /** Its access log, in Cloudflare Logpush's http_requests fields (NDJSON). */
  logFile: string;
  close(): Promise<void>;
}

/**
 * A third-party CDN on loopback, made of a second nginx set up the way docs/operations.md ("Any CDN
 * in front") tells a CDN to be: a cache keyed by the path (and, for playlists, the `svc` parameter),
 * only `svc` forwarded to the origin, the CDN's credential in `X-Svc-Edge` on every origin fetch,
 * concurrent misses collapsed, nothing but 2xx cached (nginx's default without proxy_cache_valid:
 * the origin's Cache-Control decides). It logs each request as Cloudflare Logpush would (the
 * fields `svc cdn import` reads; Cloudflare writes `CacheCacheStatus` in lower case, nginx in upper).
 * `countries` maps loopback addresses to what Cloudflare would log as `ClientCountry`.
 */
export async function startStandInCdn(opts: {
  /** `host:port` of the origin's CDN server. */
  origin: string;
  credential: string;
  countries?: Record<string, string>;
  /** Its port (the appliance's `public_urls.cdn_url` names it before it starts); a free one by default. */
  port?: number;
}): Promise<StandInCdn> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-standin-cdn-'));
  for (const d of ['temp', 'cache']) mkdirSync(join(dir, d));
  const port = opts.port ?? (await freePort());
  const logFile = join(dir, 'logpush.log');
  const countries = Object.entries(opts.countries ?? {})
    .map(([address, country]) => `    ${address} ${country.toLowerCase()};\n`)
    .join('');
  // As root, its workers keep root's user: its cache and temp folders are in a 0700 temp dir.
  const conf = `daemon off;
${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
  proxy_cache_path ${dir}/cache levels=1:2 keys_zone=standin:4m max_size=256m inactive=10m use_temp_path=off;
  geo $standin_country {
    default xx;
${countries}  }
  # Logpush's default timestamps: nanoseconds since the epoch.
  map $msec $standin_end_ns {
    "~^(?<s>[0-9]+)\\.(?<ms>[0-9]{3})$" "$s\${ms}000000";
    default 0;
  }
  # The recipe's cache key: the path; a playlist's also has its token (it lists its pieces with it).
  map $uri $standin_key_query {
    ~\\.m3u8$ "?svc=$arg_svc";
    default "";
  }
  # The recipe's origin request: only the svc parameter (a cache-busting one never reaches the origin).
  map $arg_svc $standin_origin_query {
    "" "";
    default "?svc=$arg_svc";
  }
  log_format logpush escape=json '{"ClientIP":"$remote_addr","ClientCountry":"$standin_country","ClientRequestHost":"$host","ClientRequestMethod":"$request_method","ClientRequestPath":"$uri","ClientRequestURI":"$request_uri","ClientRequestUserAgent":"$http_user_agent","EdgeEndTimestamp":$standin_end_ns,"EdgeResponseStatus":$status,"EdgeResponseBodyBytes":$body_bytes_sent,"EdgeResponseBytes":$bytes_sent,"CacheCacheStatus":"$upstream_cache_status"}';
  server {
    listen 127.0.0.1:${port};
    location = /standin-health { return 200 "ok\\n"; }
    location / {
      access_log ${logFile} logpush;
      proxy_pass http://${opts.origin}$uri$standin_origin_query;
      proxy_set_header X-Svc-Edge "${opts.credential}";
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_cache standin;
      proxy_cache_key $uri$standin_key_query;
      proxy_cache_lock on;
      # Ranges answered from what came from the origin, as CDNs do (a recording download resumed).
      proxy_force_ranges on;
      add_header X-Cache $upstream_cache_status always;
    }
  }
}
`;
  const confFile = join(dir, 'nginx.conf');
  writeFileSync(confFile, conf);
  // Its errors go to the test's output (a stand-in that refuses is a broken test, worth seeing).
  const child: ResultPromise = execa('nginx', ['-e', 'stderr', '-p', dir, '-c', confFile], {
    reject: false,
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(
      'the stand-in CDN answers',
      async () => {
        if (child.exitCode !== null)
          throw new Error(`the stand-in CDN's nginx exited: ${String((await child).stderr)}`);
        return (await fetch(`${url}/standin-health`).catch(() => null))?.status === 200;
      },
      10_000,
      100,
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url,
    logFile,
    async close() {
      child.kill('SIGQUIT');
      await child;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
