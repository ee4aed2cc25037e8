import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { loadEdgeConfig, resolveEdgeConfig, writeEdgeFiles, type EdgeFile } from '../../src/config/edge.js';
import { dataPaths } from '../../src/config/paths.js';
import { GEOIP_COUNTRY_V6, nginxArgs, njsScripts } from '../../src/platform/nginx/config.js';
import {
  EDGE_NJS_SCRIPTS,
  originServer,
  renderEdgeNginxConfig,
  type EdgeNginxInput,
} from '../../src/platform/nginx/edge-config.js';
import { run } from '../../src/platform/process/run.js';

const GOLDEN = fileURLToPath(new URL('./fixtures/edge.conf', import.meta.url));
const GOLDEN_HTTPS = fileURLToPath(new URL('./fixtures/edge-https-origin.conf', import.meta.url));
const GOLDEN_TLS = fileURLToPath(new URL('./fixtures/edge-tls.conf', import.meta.url));
const DATA_DIR = '/var/lib/svc-edge';

const FILE: EdgeFile = {
  edge_id: 'edg_0123456789abcdefghij',
  name: 'fra-1',
  origin_api_url: 'http://10.0.0.1:8080',
  origin_cdn_url: 'http://10.0.0.1:8081',
  listen_host: '0.0.0.0',
  cdn_port: 8081,
  country_table: { '127.0.0.2': 'DE', '10.9.0.0/16': 'NL' },
};

/** A root install joined to a plain-http origin with the defaults: what most edges render. */
function input(dataDir: string, file: Partial<EdgeFile> = {}, user: string | null = 'www-data'): EdgeNginxInput {
  return {
    config: resolveEdgeConfig(dataDir, { ...FILE, ...file }),
    secrets: {
      credential: 'edg_0123456789abcdefghij.golden-credential-mac',
      cdn_secret: 'golden-cdn-secret-0123456789abcdef',
      viewer_key: 'golden-viewer-key-0123456789abcdef',
    },
    geoipDatabase: GEOIP_COUNTRY_V6,
    user,
  };
}

const HTTPS_ORIGIN = { origin_cdn_url: 'https://live.example.com:8081' };
/** https for viewers with the operator's files, behind a shared name. */
const TLS_EDGE: Partial<EdgeFile> = {
  tls: { domain: 'cdn.example.com', certificate_file: '/etc/ssl/cdn.pem', key_file: '/etc/ssl/cdn.key' },
};

for (const [name, golden, extra] of [
  ['', GOLDEN, {}],
  [' (https origin)', GOLDEN_HTTPS, HTTPS_ORIGIN],
  [' (https for viewers)', GOLDEN_TLS, TLS_EDGE],
] as const)
  test(`renderEdgeNginxConfig${name}: the golden file, byte for byte`, () => {
    const text = renderEdgeNginxConfig(input(DATA_DIR, extra));
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, text);
    assert.fixture(text, readFileSync(golden, 'utf8'), 'refresh with UPDATE_GOLDEN=1 if the change is meant');
  });

test('renderEdgeNginxConfig: no rtmp, the cache key holds no signature, session or query; the origin gets no query', () => {
  const text = renderEdgeNginxConfig(input(DATA_DIR));
  assert.not.match(text, /^load_module .*rtmp/m);
  assert.not.match(text, /^rtmp /m);
  const keys = [...text.matchAll(/proxy_cache_key "([^"]+)";/g)].map((m) => m[1]);
  assert.equal(keys, [
    '$sid/$file',
    '$sid/$file',
    '_rec/$sid $slice_range',
    '_replay/$sid/$file $slice_range',
    '_replay/$sid/$file $slice_range',
    '_thumb/$sid',
    '_still/$sid/$still',
    '_thumb/$sid',
  ]);
  const passes = [...text.matchAll(/proxy_pass (\S+);/g)].map((m) => m[1]);
  assert.equal(passes, [
    'http://svc_origin/_edge/$sid/$file',
    'http://svc_origin/_edge/$sid/$file',
    'http://svc_origin/_edge/_rec/$sid/recording.mp4',
    'http://svc_origin/_edge/_replay/$sid/$file',
    'http://svc_origin/_edge/_replay/$sid/$file',
    'http://svc_origin/_edge/_thumb/$sid.jpg',
    'http://svc_origin/_edge/_still/$sid/$still.jpg',
    'http://svc_origin/_edge/_thumb/$sid.jpg',
  ]);
  assert.ok(text.includes('server 10.0.0.1:8081;'));
  assert.ok(text.includes('log_format cdn escape=json') && text.includes(',"cache":"$upstream_cache_status"}'));
  // Every location that proxies sends the credential (a location's proxy_set_header replaces the inherited ones).
  assert.is(text.split('proxy_set_header X-Svc-Edge "edg_0123456789abcdefghij.golden-credential-mac";').length - 1, 8);
});

test('originServer: the port spelled out, IPv6 in brackets, the TLS name without them', () => {
  assert.equal(originServer('https://live.example.com'), {
    scheme: 'https',
    server: 'live.example.com:443',
    host: 'live.example.com',
    tlsName: 'live.example.com',
  });
  assert.equal(originServer('http://[2001:db8::1]:8081'), {
    scheme: 'http',
    server: '[2001:db8::1]:8081',
    host: '[2001:db8::1]:8081',
    tlsName: '2001:db8::1',
  });
});

test('edge files: written 0600, read back; an unknown key and a bad value are refused, naming the key', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-edge-files-'));
  try {
    const secrets = input(dataDir).secrets;
    writeEdgeFiles(dataDir, FILE, secrets);
    const paths = dataPaths(dataDir);
    for (const file of [paths.edgeConfig, paths.edgeSecrets])
      assert.is((Number(statSync(file).mode) & 0o777).toString(8), '600');
    const config = loadEdgeConfig(dataDir);
    assert.is(config.logShipSeconds, 2);
    assert.is(config.originCaFile, null);
    writeFileSync(paths.edgeConfig, JSON.stringify({ ...FILE, cache_size: 3 }));
    assert.throws(() => loadEdgeConfig(dataDir), /unknown key "cache_size"/);
    writeFileSync(paths.edgeConfig, JSON.stringify({ ...FILE, cdn_port: 0 }));
    assert.throws(() => loadEdgeConfig(dataDir), /"cdn_port" must be >= 1/);
    assert.throws(() => writeEdgeFiles(dataDir, { ...FILE, origin_api_url: 'ftp://x' }, secrets), /origin_api_url/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

for (const [name, golden, extra] of [
  ['the golden config', GOLDEN, {}],
  ['the https-origin golden config', GOLDEN_HTTPS, { ...HTTPS_ORIGIN, origin_cdn_url: 'https://127.0.0.1:8081' }],
  ['the https-for-viewers golden config', GOLDEN_TLS, TLS_EDGE],
] as const)
  test(`real nginx -t loads ${name}, moved to a temp data dir`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-edge-conf-'));
    try {
      const paths = dataPaths(dataDir);
      const text = renderEdgeNginxConfig(input(dataDir, extra));
      if (golden === GOLDEN)
        assert.is(text, readFileSync(golden, 'utf8').replaceAll(DATA_DIR, dataDir), 'only the data dir differs');
      for (const dir of [paths.run, paths.logs, join(paths.nginx, 'temp')]) mkdirSync(dir, { recursive: true });
      for (const [from, to] of njsScripts(paths, EDGE_NJS_SCRIPTS)) copyFileSync(from, to);
      const conf = join(paths.nginx, 'nginx.conf');
      writeFileSync(conf, text, { mode: 0o600 });
      await run('nginx', nginxArgs(paths.nginx, conf, { test: true }));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

test('renderEdgeNginxConfig with tls: signed locations on https only; plain ports answer challenges (else the origin, with the credential) and redirect', () => {
  const text = renderEdgeNginxConfig(input(DATA_DIR, { ...TLS_EDGE, cdn_port: 80 }));
  assert.match(text, /listen 0\.0\.0\.0:443 ssl;\n {4}ssl_certificate \$svc_tls_file;/);
  // The viewer port is the http port here: one listener.
  assert.is(text.split('listen 0.0.0.0:80;').length - 1, 1);
  assert.ok(text.includes('proxy_pass http://svc_origin_api/edge/v1/acme-challenge/$acme_token;'));
  assert.ok(text.includes('proxy_set_header Authorization "Bearer edg_0123456789abcdefghij.golden-credential-mac";'));
  assert.ok(text.includes('return 301 https://$host$request_uri;'));
  const other = renderEdgeNginxConfig(
    input(DATA_DIR, { tls: { ...TLS_EDGE.tls!, https_port: 8443, http_port: 8080 } }),
  );
  for (const port of [8081, 8080]) assert.ok(other.includes(`listen 0.0.0.0:${port};`), `plain ${port}`);
  assert.ok(other.includes('return 301 https://$host:8443$request_uri;'));
});

test('edge.json tls: one certificate source; https on a port of its own', () => {
  const tls = TLS_EDGE.tls!;
  assert.throws(
    () => resolveEdgeConfig(DATA_DIR, { ...FILE, tls: { ...tls, acme: { email: 'a@b.c' } } }),
    /edge\.json: "tls" has both "acme" and "certificate_file"/,
  );
  assert.throws(() => resolveEdgeConfig(DATA_DIR, { ...FILE, tls: { domain: 'cdn.example.com' } }), /needs "acme"/);
  assert.throws(
    () => resolveEdgeConfig(DATA_DIR, { ...FILE, cdn_port: 443, tls }),
    /"tls\.https_port" and "cdn_port" are both 443/,
  );
  // Ports browsers refuse (the Fetch standard's bad ports): viewers would never load them.
  assert.throws(
    () => resolveEdgeConfig(DATA_DIR, { ...FILE, cdn_port: 10080 }),
    /"cdn_port" is 10080, a port browsers refuse/,
  );
  assert.throws(
    () => resolveEdgeConfig(DATA_DIR, { ...FILE, tls: { ...tls, https_port: 6697 } }),
    /"tls\.https_port" is 6697, a port browsers refuse .* such as 6698/,
  );
  const config = resolveEdgeConfig(DATA_DIR, { ...FILE, tls: { domain: 'CDN.example.com', acme: { email: 'a@b.c' } } });
  assert.equal(config.tls?.names, ['cdn.example.com']);
  assert.equal(config.tls?.ports, { https: 443, http: 80 });
  assert.match(config.tls?.acme?.directoryUrl ?? '', /letsencrypt/);
});

test.run();
