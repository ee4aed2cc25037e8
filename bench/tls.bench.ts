/**
 * Delivery over TLS against plain http: the CDN origin's real nginx config (rendered as `svc up`
 * renders it, once without TLS and once with it) serving the same 2.5 MB segment (a 4-second
 * segment of a 1080p30 5 Mbps ladder) to keep-alive clients on loopback, for the same time, in the
 * same run. Client and server share this machine's cores, so the figures are a floor for a
 * machine that only serves. nginx's CPU from /proc (its workers).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { destination } from 'pino';
import { resolveConfig, type Config } from '../src/config/config.js';
import { dataPaths } from '../src/config/paths.js';
import { createLogger } from '../src/core/logger.js';
import { cdnSecret, signatureSegment } from '../src/domains/ledger/cdn/addresses.js';
import { NginxIngest, nginxWorkerUser } from '../src/platform/nginx/nginx.js';
import { processesInGroup } from '../src/platform/process/proc.js';
import { Supervisor } from '../src/platform/process/supervisor.js';
import { protectDataDir, servedPrivately } from '../src/platform/system/data-dir.js';
import { openForTraversal } from '../src/platform/system/users.js';
import { testCertificate, type TestCertificate } from '../test/helpers/certificates.js';
import { freePort } from '../test/helpers/ports.js';
import { cpuOf } from './pipeline.bench.js';

const SEGMENT_BYTES = 2_500_000;
const SECONDS = 10;
const CONNECTIONS = 4;
const DOMAIN = 'cdn.svc.test';
const STREAM = 'str_benchtls000000000000';

interface Figures {
  segments: number;
  bytes: number;
  nginxCpu: number;
}

export async function benchTls(): Promise<string> {
  if (!(await execa('wrk', ['--version'], { reject: false })).stdout.startsWith('wrk'))
    return 'tls: needs wrk (apt-get install -y wrk)';
  const cert = await testCertificate([DOMAIN]);
  const plain = await serveFor(null);
  const tls = await serveFor(cert);
  const row = (name: string, f: Figures) =>
    `| ${name} | ${(f.segments / SECONDS).toFixed(1)} | ${(f.bytes / SECONDS / 1e9).toFixed(3)} | ${(f.nginxCpu / SECONDS).toFixed(2)} | ${(f.nginxCpu / (f.bytes / 1e9)).toFixed(2)} |`;
  const ktls = existsSync('/proc/net/tls_stat')
    ? 'present'
    : 'absent (no `tls` kernel module: OpenSSL encrypts in nginx)';
  return [
    `CDN delivery of one ${(SEGMENT_BYTES / 1e6).toFixed(1)} MB segment, ${CONNECTIONS} keep-alive clients on loopback, ${SECONDS} s each; kernel TLS ${ktls}`,
    '',
    '| Delivery | segments/s | GB/s | nginx cores | nginx CPU-s per GB |',
    '|---|---|---|---|---|',
    row('http', plain),
    row('https (TLS 1.3, P-256)', tls),
    '',
    `https/http: throughput ${(tls.bytes / plain.bytes).toFixed(2)}×, nginx CPU per GB ${(tls.nginxCpu / tls.bytes / (plain.nginxCpu / plain.bytes)).toFixed(2)}× (wrk decrypts on the same cores)`,
  ].join('\n');
}

async function serveFor(cert: TestCertificate | null): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-tls-'));
  openForTraversal(dir);
  const supervisor = new Supervisor();
  try {
    const config = await benchConfig(dir, cert !== null);
    const paths = dataPaths(dir);
    const worker = await nginxWorkerUser();
    protectDataDir(dir, worker);
    if (cert) {
      writeFileSync(paths.tlsCertificate, cert.keyPem + cert.chainPem);
      servedPrivately(paths.tlsCertificate, worker);
    }
    mkdirSync(join(paths.origin, STREAM), { recursive: true });
    writeFileSync(join(paths.origin, STREAM, 'source_00001.ts'), randomBytes(SEGMENT_BYTES));
    const logger = createLogger('warn', destination({ dest: join(dir, 'logs', 'svc.log'), mkdir: true, sync: true }));
    const nginx = new NginxIngest({
      config,
      secret: cdnSecret('bench-signing-key'),
      viewerKey: 'bench-viewer-key',
      edgeKey: 'bench-edge-key',
      nodeKey: 'bench-node-key',
      hooksUrl: `http://127.0.0.1:${config.ports.api}/internal/ingest/unused`,
      api: { mainPort: config.ports.api, workerPorts: [] },
      worker,
      logger,
    });
    await nginx.start(supervisor);
    const signature = signatureSegment(cdnSecret('bench-signing-key'), 'hls', STREAM, new Date(Date.now() + 3600_000));
    const url = `${cert ? 'https' : 'http'}://127.0.0.1:${config.ports.cdn}/${signature}/${STREAM}/source_00001.ts`;
    const master = Number(readFileSync(paths.nginxPid, 'utf8').trim());
    const nginxCpu = () => processesInGroup(master).reduce((sum, pid) => sum + cpuOf(pid, false), 0);
    await load(url, 1); // warm: the page cache
    const before = nginxCpu();
    const { segments, bytes } = await load(url, SECONDS);
    return { segments, bytes, nginxCpu: nginxCpu() - before };
  } finally {
    await supervisor.stopAll();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function benchConfig(dir: string, tls: boolean): Promise<Config> {
  return resolveConfig(dir, {
    listen_host: '127.0.0.1',
    api_port: await freePort(),
    rtmp_port: await freePort(),
    cdn_port: await freePort(),
    player_port: await freePort(),
    database_url: 'postgres://unused@127.0.0.1:1/unused',
    tls: tls
      ? {
          domain: DOMAIN,
          certificate_file: '/unused/by/nginx.pem',
          key_file: '/unused/by/nginx.pem',
          https_port: await freePort(),
          http_port: await freePort(),
          rtmps_port: await freePort(),
        }
      : null,
  });
}

/**
 * wrk (Debian's `wrk`): `CONNECTIONS` keep-alive clients on one thread, fetching the segment again
 * and again. A client in Node spent a core decrypting and capped https at a quarter of http.
 */
async function load(url: string, seconds: number): Promise<{ segments: number; bytes: number }> {
  const { stdout } = await execa('wrk', ['-t1', `-c${CONNECTIONS}`, `-d${seconds}s`, url]);
  const requests = /(\d+) requests in/.exec(stdout);
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (!requests || errors) throw new Error(`wrk ${url}: ${stdout}`);
  const segments = Number(requests[1]);
  return { segments, bytes: segments * SEGMENT_BYTES };
}
