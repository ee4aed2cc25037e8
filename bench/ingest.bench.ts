/**
 * What a secure ingest costs beside RTMP: the same 720p30 3 Mbit/s clip published for the same
 * time over RTMP, RTMPS (TLS in nginx's stream module) and SRT (an ffmpeg relay into nginx), to
 * a passthrough stream (no transcoding to drown the figures). CPU from /proc: nginx's master and
 * workers for RTMP and RTMPS, the SRT relay's ffmpeg apart.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { startAppliance } from '../src/composition/appliance.js';
import { localApiUrl, resolveConfig } from '../src/config/config.js';
import { dataPaths } from '../src/config/paths.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { commandLine, processesInGroup } from '../src/platform/process/proc.js';
import { testCertificate } from '../test/helpers/certificates.js';
import { freePort } from '../test/helpers/ports.js';
import { makeClip, runPublisher, waitFor } from '../test/helpers/publisher.js';
import { sleep } from '../test/helpers/streams.js';
import { cpuOf } from './pipeline.bench.js';
import { startBenchDatabase } from './database.js';

const SECONDS = 30;
const DOMAIN = 'live.svc.test';

export async function benchIngest(): Promise<string> {
  const db = await startBenchDatabase();
  const certDir = mkdtempSync(join(tmpdir(), 'svc-bench-ingest-cert-'));
  const cert = await testCertificate([DOMAIN]);
  writeFileSync(join(certDir, 'chain.pem'), cert.chainPem);
  writeFileSync(join(certDir, 'key.pem'), cert.keyPem);
  writeFileSync(join(certDir, 'ca.pem'), cert.caPem);
  const config = resolveConfig(db.dir, {
    listen_host: '127.0.0.1',
    api_port: await freePort(),
    rtmp_port: await freePort(),
    cdn_port: await freePort(),
    player_port: await freePort(),
    database_url: db.url,
    capacity: { cores: 1000 },
    tls: {
      domain: DOMAIN,
      certificate_file: join(certDir, 'chain.pem'),
      key_file: join(certDir, 'key.pem'),
      https_port: await freePort(),
      http_port: await freePort(),
      rtmps_port: await freePort(),
    },
  });
  const logger = createLogger('warn', destination({ dest: join(db.dir, 'svc.log'), mkdir: true, sync: true }));
  const running = await startAppliance({
    config,
    secrets: { postgres_password: 'bench', signing_key: 'bench', data_key: 'bench' },
    logger,
  });
  const accounts = new AccountsService(db.sql, systemClock);
  const account = await accounts.create({ name: 'Bench', trusted: true, creditUsd: '1000' });
  const { key } = await accounts.createApiKey(account.id);
  const clip = await makeClip({ width: 1280, height: 720, seconds: SECONDS + 15, videoKbps: 3000 });
  const master = Number(readFileSync(dataPaths(db.dir).nginxPid, 'utf8').trim());
  const nginxCpu = () => processesInGroup(master).reduce((sum, pid) => sum + cpuOf(pid, false), 0);
  // The relays read their listener's settings from run/srt/ (the passphrase is in no command line).
  const relayCpu = () =>
    readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((pid) => {
        const argv = commandLine(pid);
        return argv?.[0]?.includes('ffmpeg') && argv.some((arg) => arg.includes('/run/srt/'));
      })
      .reduce((sum, pid) => sum + cpuOf(pid, false), 0);

  const create = async () => {
    const res = await fetch(`${localApiUrl(config)}/v1/streams`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ profile: 'passthrough' }),
    });
    return (await res.json()) as { id: string; stream_key: string; srt_url: string };
  };
  const measure = async (target: (s: { id: string; stream_key: string; srt_url: string }) => string[]) => {
    const stream = await create();
    const publisher = runPublisher(['-re', '-i', clip, '-t', String(SECONDS + 10), '-c', 'copy', ...target(stream)]);
    await waitFor('live', async () => {
      const rows = await db.sql`select status from streams where id = ${stream.id}`;
      return rows[0]?.status === 'live';
    });
    // A window while it publishes: the relay that carried it is gone once the publisher leaves.
    const [n0, r0, t0] = [nginxCpu(), relayCpu(), performance.now()];
    await sleep(SECONDS * 1000);
    const seconds = (performance.now() - t0) / 1000;
    const used = { nginx: (nginxCpu() - n0) / seconds, relay: (relayCpu() - r0) / seconds };
    await publisher.kill();
    return used;
  };
  try {
    const tls = config.tls;
    if (!tls) throw new Error('TLS is off');
    const rtmp = await measure((s) => ['-f', 'flv', `rtmp://127.0.0.1:${config.ports.rtmp}/live/${s.stream_key}`]);
    const rtmps = await measure((s) => [
      '-f',
      'flv',
      '-tls_verify',
      '1',
      '-ca_file',
      join(certDir, 'ca.pem'),
      '-verifyhost',
      DOMAIN,
      `rtmps://127.0.0.1:${tls.ports.rtmps}/live/${s.stream_key}`,
    ]);
    const srt = await measure((s) => ['-f', 'mpegts', s.srt_url.replace(`//${DOMAIN}:`, '//127.0.0.1:')]);
    const cores = (n: number) => n.toFixed(4);
    return [
      `Ingest of one 720p30 3 Mbit/s clip for ${SECONDS} s into a passthrough stream, per protocol (cores while publishing)`,
      '',
      '| Ingest | nginx (all its processes) | SRT relay (ffmpeg) | above RTMP |',
      '|---|---|---|---|',
      `| RTMP | ${cores(rtmp.nginx)} | - | - |`,
      `| RTMPS (TLS in nginx's stream module) | ${cores(rtmps.nginx)} | - | ${cores(rtmps.nginx - rtmp.nginx)} |`,
      `| SRT (AES-128) | ${cores(srt.nginx)} | ${cores(srt.relay)} | ${cores(srt.nginx + srt.relay - rtmp.nginx)} |`,
    ].join('\n');
  } finally {
    await running.stop();
    await db.stop();
    rmSync(certDir, { recursive: true, force: true });
  }
}
