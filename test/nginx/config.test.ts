import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEFAULT_LIVE } from '../../src/config/config.js';
import { dataPaths } from '../../src/config/paths.js';
import {
  GEOIP_COUNTRY_V6,
  nginxArgs,
  renderNginxConfig,
  njsScripts,
  type ApiListeners,
  type NginxConfigInput,
} from '../../src/platform/nginx/config.js';
import { run } from '../../src/platform/process/run.js';

const GOLDEN = fileURLToPath(new URL('./fixtures/nginx.conf', import.meta.url));
const GOLDEN_TLS = fileURLToPath(new URL('./fixtures/nginx-tls.conf', import.meta.url));
const DATA_DIR = '/var/lib/svc';

/** A root install on every address with the default ports and two API workers: what most appliances render. */
function input(
  dataDir: string,
  extra: Partial<NginxConfigInput['config']> = {},
  user: string | null = 'www-data',
  api: ApiListeners = { mainPort: 38080, workerPorts: [38081, 38082] },
): NginxConfigInput {
  return {
    config: {
      dataDir,
      listenHost: '0.0.0.0',
      ports: { api: 8080, rtmp: 1935, cdn: 8081, player: 8082, postgres: 5439 },
      publicUrls: { whip_url: 'https://media.example.com/live' },
      live: { idle_publisher_seconds: 10, segment_seconds: 4, window_segments: 6 },
      cdn: { country_table: { '127.0.0.2': 'DE', '127.0.0.3': 'FR', '10.9.0.0/16': 'NL' }, direct_viewers: true },
      tls: null,
      trustedProxies: [],
      ...extra,
    },
    secret: 'golden-cdn-secret-0123456789abcdef',
    viewerKey: 'golden-viewer-key-0123456789abcdef',
    edgeKey: 'golden-edge-key-0123456789abcdef',
    nodeKey: 'golden-node-key-0123456789abcdef',
    geoipDatabase: GEOIP_COUNTRY_V6,
    hooksUrl: 'http://127.0.0.1:38080/internal/ingest/golden-hook-token',
    api,
    user,
  };
}

test('renderNginxConfig: a load balancer in `trusted_proxies` names the client to the API behind nginx', () => {
  const text = renderNginxConfig(input(DATA_DIR, { trustedProxies: ['10.0.0.5', '192.0.2.0/24'] }));
  assert.ok(text.includes('    set_real_ip_from 10.0.0.5;\n    set_real_ip_from 192.0.2.0/24;\n    real_ip_header'));
});

test('renderNginxConfig: the rendered config is the golden file, byte for byte', () => {
  const text = renderNginxConfig(input(DATA_DIR));
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, text);
  assert.fixture(
    text,
    readFileSync(GOLDEN, 'utf8'),
    'the rendered nginx config differs from test/nginx/fixtures/nginx.conf; if the change is meant, review the diff and refresh it: UPDATE_GOLDEN=1 npm test -- nginx/config',
  );
});

test('renderNginxConfig: one listen address may pull streams too; no user line when not root', () => {
  const text = renderNginxConfig(input(DATA_DIR, { listenHost: '192.0.2.10' }, null));
  assert.ok(text.includes('listen 192.0.2.10:1935;'));
  assert.ok(text.includes('      allow play 127.0.0.1;\n      allow play 192.0.2.10;\n      deny play all;\n'));
  assert.ok(text.includes('server 192.0.2.10:38080;'));
  assert.ok(text.includes('server 192.0.2.10:38081 max_fails=1 fail_timeout=1s;'));
  assert.ok(text.includes('listen 192.0.2.10:8080;'));
  assert.ok(text.includes('set_real_ip_from 192.0.2.10;'));
  assert.not.match(text, /^user /m);
});

test('renderNginxConfig: without API workers the API process keeps the API port, nginx does not listen on it', () => {
  const text = renderNginxConfig(input(DATA_DIR, {}, null, { mainPort: 8080, workerPorts: [] }));
  assert.ok(text.includes('server 127.0.0.1:8080;'));
  assert.not.ok(text.includes('listen 0.0.0.0:8080;'));
  assert.not.ok(text.includes('svc_api_workers'));
});

/** TLS on, as `svc init --domain live.example.com --player-domain watch.example.com` gives it. */
const TLS: NginxConfigInput['config']['tls'] = {
  domain: 'live.example.com',
  playerDomain: 'watch.example.com',
  cdnDomain: 'live.example.com',
  names: ['live.example.com', 'watch.example.com'],
  ports: { https: 443, http: 80, rtmps: 1936, rtmps_relay: 11936 },
  acme: {
    email: 'ops@example.com',
    directoryUrl: 'https://acme.example/dir',
    caFile: null,
    renewBeforeDays: 30,
    retrySeconds: 60,
  },
  files: null,
  warnDays: 14,
  checkSeconds: 3600,
};

test('renderNginxConfig with TLS: the golden file, byte for byte', () => {
  const text = renderNginxConfig(input(DATA_DIR, { tls: TLS }));
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN_TLS, text);
  assert.fixture(text, readFileSync(GOLDEN_TLS, 'utf8'), 'refresh with UPDATE_GOLDEN=1 if the change is meant');
});

test('renderNginxConfig with TLS: every public listener is TLS; plain http only on loopback and for ACME', () => {
  const text = renderNginxConfig(input(DATA_DIR, { tls: TLS }));
  const listens = [...text.matchAll(/^\s*listen (\S+?)( ssl)?( default_server)?( proxy_protocol)?;/gm)].map((m) => [
    m[1],
    Boolean(m[2]),
  ]);
  assert.equal(listens, [
    ['0.0.0.0:1935', false],
    ['127.0.0.1:11936', false],
    ['0.0.0.0:1936', true],
    [`unix:${DATA_DIR}/run/nginx-control.sock`, false],
    ['0.0.0.0:8081', true],
    ['127.0.0.1:8080', false],
    ['0.0.0.0:443', true],
    ['0.0.0.0:80', false],
    ['0.0.0.0:8082', true],
    ['0.0.0.0:443', true],
  ]);
  assert.ok(text.includes('server_name watch.example.com;'));
  assert.ok(text.includes('ssl_protocols TLSv1.2 TLSv1.3;'));
  assert.not.match(text, /TLSv1(\.1)? /);
  assert.ok(text.includes('return 301 https://$host$request_uri;'));
  assert.ok(text.includes('load_module /usr/lib/nginx/modules/ngx_stream_module.so;'));
});

test('nginxArgs: golden argv to run and to test a config', () => {
  assert.equal(nginxArgs('/var/lib/svc/nginx', '/var/lib/svc/nginx/nginx.conf'), [
    '-e',
    'stderr',
    '-p',
    '/var/lib/svc/nginx',
    '-c',
    '/var/lib/svc/nginx/nginx.conf',
  ]);
  assert.equal(nginxArgs('/var/lib/svc/nginx', '/var/lib/svc/nginx/nginx.conf.new', { test: true }), [
    '-t',
    '-q',
    '-e',
    'stderr',
    '-p',
    '/var/lib/svc/nginx',
    '-c',
    '/var/lib/svc/nginx/nginx.conf.new',
  ]);
});

/** Real `nginx -t` of `text` in `dataDir`, as the appliance would start it. */
async function nginxLoads(dataDir: string, text: string): Promise<void> {
  const paths = dataPaths(dataDir);
  // nginx -t writes the pid file, opens the logs and loads the njs scripts (the appliance copies them
  // at start); the temp and cache folders it makes itself.
  for (const dir of [paths.run, paths.logs, join(paths.nginx, 'temp')]) mkdirSync(dir, { recursive: true });
  for (const [from, to] of njsScripts(paths)) copyFileSync(from, to);
  const conf = join(paths.nginx, 'nginx.conf');
  writeFileSync(conf, text, { mode: 0o600 });
  await run(DEFAULT_LIVE.nginx_path, nginxArgs(paths.nginx, conf, { test: true }));
}

for (const [name, golden, tls] of [
  ['the golden config', GOLDEN, null],
  ['the TLS golden config', GOLDEN_TLS, TLS],
] as const)
  test(`real nginx -t (with the rtmp module) loads ${name}, moved to a temp data dir`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-nginx-conf-'));
    try {
      const text = renderNginxConfig(input(dataDir, { tls }));
      assert.is(
        text,
        readFileSync(golden, 'utf8').replaceAll(DATA_DIR, dataDir),
        'only the data dir differs from the golden file',
      );
      await nginxLoads(dataDir, text);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

const STORAGE = { endpoint: 'http://127.0.0.1:7480', region: 'us-east-1', bucket: 'svc-media', forcePathStyle: true };

for (const direct_viewers of [true, false])
  test(`real nginx -t loads a config with object storage, direct viewers ${direct_viewers ? 'on' : 'off'}`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-nginx-conf-'));
    try {
      const cdn = { country_table: {}, direct_viewers };
      const text = renderNginxConfig(input(dataDir, { storage: STORAGE, cdn }));
      // Edges' fetches fall back to the bucket whether or not viewers may come here themselves.
      assert.ok(text.includes('error_page 404 = @rec_bucket;'));
      assert.ok(text.includes('try_files /$sid.jpg @thumb_bucket;'));
      // Replays too: path-form viewers who come here, edges, and the query form (a CDN's fetches).
      assert.is(text.split('error_page 404 = @rpl_bucket;').length - 1, direct_viewers ? 4 : 2);
      // nginx -t does not check that a named location exists: a missing one is a 500 at the first miss.
      for (const named of ['@rec_bucket', '@rpl_bucket', '@thumb_bucket', '@poster'])
        assert.ok(text.includes(`location ${named} {`), named);
      await nginxLoads(dataDir, text);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

test.run();
