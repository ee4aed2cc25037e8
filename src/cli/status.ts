import { connect } from 'node:net';
import { managedCluster } from '../platform/db/managed-cluster.js';
import { localHost, localUrlHost, type Config } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { Secrets } from '../config/secrets.js';
import { connect as connectDb } from '../platform/db/connect.js';
import { runningPid } from './pid.js';

export interface ApplianceStatus {
  running: boolean;
  pid: number | null;
  data_dir: string;
  parts: {
    api: { healthy: boolean; url: string };
    postgres: { healthy: boolean; managed: boolean };
    /** RTMP ingest and the CDN origin. */
    nginx: { healthy: boolean };
  };
  base_url: string;
  player_url: string;
  cdn_url: string;
  rtmp_url: string;
  allow_private_webhooks: boolean;
}

/** Where this machine reaches its own API: loopback when it listens on every address. */
export function healthUrl(config: Config): string {
  return `http://${localUrlHost(config)}:${config.ports.api}/healthz`;
}

export async function apiHealthy(config: Config, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(healthUrl(config), { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function databaseAnswers(url: string, timeoutMs = 3000): Promise<boolean> {
  const sql = connectDb(url, { max: 1 });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([sql`select 1`.then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    await sql.end({ timeout: 0 });
  }
}

export async function postgresHealthy(config: Config, secrets: Secrets): Promise<boolean> {
  if (config.databaseUrl) return databaseAnswers(config.databaseUrl);
  const cluster = managedCluster(config, secrets);
  return (await cluster.running()) && databaseAnswers(cluster.url);
}

/** nginx answers on its public faces: the RTMP port accepts, the CDN's and the player site's health checks say ok. */
export async function nginxHealthy(config: Config, timeoutMs = 2000): Promise<boolean> {
  const host = localHost(config);
  const rtmp = new Promise<boolean>((resolve) => {
    const socket = connect({ host, port: config.ports.rtmp, timeout: timeoutMs }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
  const ok = (port: number) =>
    fetch(`http://${localUrlHost(config)}:${port}/healthz`, { signal: AbortSignal.timeout(timeoutMs) })
      .then(async (res) => (await res.text(), res.status === 200))
      .catch(() => false);
  const answers = await Promise.all([rtmp, ok(config.ports.cdn), ok(config.ports.player)]);
  return answers.every(Boolean);
}

export async function applianceStatus(config: Config, secrets: Secrets): Promise<ApplianceStatus> {
  const pid = runningPid(dataPaths(config.dataDir).pidFile);
  const [api, postgres, nginx] = await Promise.all([apiHealthy(config), postgresHealthy(config, secrets), nginxHealthy(config)]);
  return {
    running: pid !== null,
    pid,
    data_dir: config.dataDir,
    parts: {
      api: { healthy: api, url: config.publicUrls.base_url },
      postgres: { healthy: postgres, managed: config.databaseUrl === null },
      nginx: { healthy: nginx },
    },
    base_url: config.publicUrls.base_url,
    player_url: config.publicUrls.player_url,
    cdn_url: config.publicUrls.cdn_url,
    rtmp_url: config.publicUrls.rtmp_url,
    allow_private_webhooks: config.allowPrivateWebhooks,
  };
}

export function describeStatus(s: ApplianceStatus): string[] {
  const health = (ok: boolean) => (ok ? 'healthy' : 'down');
  return [
    s.running ? `svc is running (pid ${s.pid})` : 'svc is not running',
    `  data dir   ${s.data_dir}`,
    `  api        ${health(s.parts.api.healthy).padEnd(8)} ${s.parts.api.url}`,
    `  postgres   ${health(s.parts.postgres.healthy).padEnd(8)} ${s.parts.postgres.managed ? 'appliance-owned cluster' : 'external (database_url)'}`,
    `  nginx      ${health(s.parts.nginx.healthy).padEnd(8)} rtmp ingest ${s.rtmp_url}, cdn ${s.cdn_url}`,
    `  player     ${s.player_url}`,
    ...(s.allow_private_webhooks
      ? ['Warning: allow_private_webhooks is on: webhooks may target http and private addresses; turn it off for production with `svc init --no-allow-private-webhooks`.']
      : []),
  ];
}
