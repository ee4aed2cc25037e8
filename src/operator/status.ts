import { get as httpsGet } from 'node:https';
import { connect } from 'node:net';
import { managedCluster } from '../platform/db/managed-cluster.js';
import { localApiUrl, localHost, localUrlHost, metricsUrl, type Config } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { Secrets } from '../config/secrets.js';
import { connect as connectDb, type Sql } from '../platform/db/connect.js';
import { listJobRuns } from '../platform/jobs/queries.js';
import { jobStatus, type JobStatus } from '../platform/jobs/status.js';
import { systemClock } from '../core/clock.js';
import { runningPid } from './pid.js';
import { readTlsState, type TlsStatus } from '../platform/tls/keeper.js';
import { listEdges } from '../domains/ledger/edges/queries.js';
import { presentEdge, type PresentedEdge } from '../domains/ledger/edges/present.js';
import { presentNodes, type PresentedNode } from '../domains/streams/node-load.js';
import { readFileSync } from 'node:fs';
import type { StorageState } from '../composition/storage.js';

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
  /** Where Prometheus scrapes this node; null: no metrics listener (`metrics_port` unset). */
  metrics_url: string | null;
  /** Running, every part healthy and no job late (the exit code is 0 only then). */
  healthy: boolean;
  /** The scheduled jobs, from the database (empty while it or the appliance does not run). */
  jobs: JobStatus[];
  /** The served certificate (TLS on); null without TLS or before the first start obtained one. */
  certificate: TlsStatus | null;
  /** The edges and CDNs in front of this origin (docs/operations.md, "Edges"), from the database. */
  edges: PresentedEdge[];
  /** The cluster's ingest nodes, this one included (docs/operations.md, "Ingest nodes"), from the database. */
  nodes: PresentedNode[];
  /** Where recordings go and, with object storage, its health and the spool (docs/operations.md, "Object storage"). */
  storage: StorageStatus;
}

export interface StorageStatus {
  kind: 'local' | 's3';
  /** The endpoint and bucket; null for the data dir. */
  where: string | null;
  /** The bucket answered the appliance's last upload or probe; null: not known (not running, or local). */
  up: boolean | null;
  spool_bytes: number;
  spool_items: number;
  spool_max_bytes: number;
  spool_oldest_seconds: number;
  last_error: string | null;
  uploads: number;
  uploaded_bytes: number;
}

/** What the running appliance last wrote of its object storage (run/storage-state.json). */
export function storageStatus(config: Config, running: boolean): StorageStatus {
  const empty = {
    up: null,
    spool_bytes: 0,
    spool_items: 0,
    spool_oldest_seconds: 0,
    last_error: null,
    uploads: 0,
    uploaded_bytes: 0,
  };
  if (!config.storage) return { kind: 'local', where: null, spool_max_bytes: 0, ...empty };
  const base = {
    kind: 's3' as const,
    where: `${config.storage.endpoint ?? 'aws'} bucket "${config.storage.bucket}"`,
    spool_max_bytes: config.storage.spoolMaxBytes,
  };
  if (!running) return { ...base, ...empty };
  try {
    const st = JSON.parse(readFileSync(dataPaths(config.dataDir).storageState, 'utf8')) as StorageState;
    return {
      ...base,
      where: st.where ?? base.where,
      up: st.up,
      spool_bytes: st.bytes,
      spool_items: st.items,
      spool_oldest_seconds: st.oldestSeconds,
      last_error: st.lastError,
      uploads: st.uploads,
      uploaded_bytes: st.uploadedBytes,
    };
  } catch {
    return { ...base, ...empty };
  }
}

/** Where this machine reaches its own API: loopback when it listens on every address. */
export function healthUrl(config: Config): string {
  return `${localApiUrl(config)}/healthz`;
}

/** The API answers its health check (200, or 503 naming a part that is down: the API itself answers). */
export async function apiHealthy(config: Config, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(healthUrl(config), { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json().catch(() => null)) as { parts?: unknown } | null;
    return res.status === 200 || (res.status === 503 && typeof body?.parts === 'object');
  } catch {
    return false;
  }
}

interface DatabaseReading {
  healthy: boolean;
  jobs: JobStatus[];
  edges: PresentedEdge[];
  nodes: PresentedNode[];
}

const UNREAD: DatabaseReading = { healthy: false, jobs: [], edges: [], nodes: [] };

/** Whether the database answers within the time, and its jobs (empty if it does not answer). */
async function readDatabase(url: string, capacity: Config['capacity'], timeoutMs = 3000): Promise<DatabaseReading> {
  const sql: Sql = connectDb(url, { max: 1, connectTimeoutSeconds: Math.ceil(timeoutMs / 1000) });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), timeoutMs)));
  try {
    const answered = await Promise.race([sql`select 1`.then(() => true), timeout]);
    if (!answered) return UNREAD;
    // Before the appliance's first start on this database the tables do not exist yet.
    const now = systemClock.now();
    const [rows, edges, nodes] = await Promise.all([
      Promise.race([listJobRuns(sql).catch(() => []), timeout]),
      Promise.race([listEdges(sql).catch(() => []), timeout]),
      Promise.race([presentNodes(sql, capacity, now).catch(() => []), timeout]),
    ]);
    return {
      healthy: true,
      jobs: (rows ?? []).map((row) => jobStatus(row, now)),
      edges: (edges ?? []).map((edge) => presentEdge(edge, now)),
      nodes: nodes ?? [],
    };
  } catch {
    return UNREAD;
  } finally {
    clearTimeout(timer);
    await sql.end({ timeout: 0 });
  }
}

export async function postgresStatus(config: Config, secrets: Secrets): Promise<DatabaseReading> {
  if (config.databaseUrl) return readDatabase(config.databaseUrl, config.capacity);
  const cluster = managedCluster(config, secrets);
  return cluster.postmasterAlive() ? readDatabase(cluster.url, config.capacity) : UNREAD;
}

/**
 * An https health check on loopback under the public name: whether nginx answers, not whether the
 * certificate is trusted here (its state is reported apart, from the certificate itself).
 */
function httpsAnswers(host: string, port: number, servername: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpsGet(
      { host, port, servername, path: '/healthz', rejectUnauthorized: false, timeout: timeoutMs },
      (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
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
    config.tls
      ? httpsAnswers(host, port, config.tls.domain, timeoutMs)
      : fetch(`http://${localUrlHost(config)}:${port}/healthz`, { signal: AbortSignal.timeout(timeoutMs) })
          .then(async (res) => (await res.text(), res.status === 200))
          .catch(() => false);
  const answers = await Promise.all([rtmp, ok(config.ports.cdn), ok(config.ports.player)]);
  return answers.every(Boolean);
}

export async function applianceStatus(config: Config, secrets: Secrets): Promise<ApplianceStatus> {
  const pid = runningPid(dataPaths(config.dataDir).pidFile);
  const [api, postgres, nginx, certificate] = await Promise.all([
    apiHealthy(config),
    postgresStatus(config, secrets),
    nginxHealthy(config),
    config.tls ? readTlsState(dataPaths(config.dataDir).tls) : null,
  ]);
  const running = pid !== null;
  const storage = storageStatus(config, running);
  return {
    running,
    pid,
    data_dir: config.dataDir,
    parts: {
      api: { healthy: api, url: config.publicUrls.base_url },
      postgres: { healthy: postgres.healthy, managed: config.databaseUrl === null },
      nginx: { healthy: nginx },
    },
    base_url: config.publicUrls.base_url,
    player_url: config.publicUrls.player_url,
    cdn_url: config.publicUrls.cdn_url,
    rtmp_url: config.publicUrls.rtmp_url,
    allow_private_webhooks: config.allowPrivateWebhooks,
    metrics_url: metricsUrl(config),
    healthy:
      running &&
      api &&
      postgres.healthy &&
      nginx &&
      !postgres.jobs.some((j) => j.late) &&
      certificate?.state !== 'expired' &&
      storage.up !== false,
    jobs: running ? postgres.jobs : [],
    certificate,
    edges: postgres.edges,
    nodes: postgres.nodes,
    storage,
  };
}

const ago = (iso: string | null): string =>
  iso ? `${Math.max(0, Math.round((systemClock.now().getTime() - Date.parse(iso)) / 1000))} s ago` : 'never';

function describeJob(j: JobStatus): string {
  const state = j.late ? `LATE (${j.lag_seconds} s, period ${j.period_seconds} s)` : j.running ? 'running' : 'ok';
  const error = j.last_error ? `, last error: ${j.last_error}` : '';
  const took = j.last_duration_ms === null ? '' : ` (took ${j.last_duration_ms} ms)`;
  return `    ${j.name.padEnd(26)} ${state.padEnd(8)} last run ${ago(j.last_run_at)}${took}, last success ${ago(j.last_success_at)}, lag ${j.lag_seconds} s${error}`;
}

function describeNode(n: PresentedNode): string {
  if (n.state === 'joining') return `    ${n.name.padEnd(26)} joining  waiting for \`svc node join\` with its token`;
  const state = n.state === 'up' ? 'up' : 'DOWN';
  const drain = n.status === 'draining' ? ', DRAINING' : '';
  return `    ${n.name.padEnd(26)} ${state.padEnd(8)} ${n.rtmp_url ?? '?'}, ${n.live} live, ${n.pending} pending, ${n.reserved_cores}/${n.budget_cores} cores reserved, load ${n.measured_load ?? '-'}${drain}, seen ${ago(n.last_seen_at)}`;
}

function describeEdge(e: PresentedEdge): string {
  if (e.kind === 'cdn') return `    ${e.name.padEnd(26)} cdn      logs imported (svc cdn import)`;
  if (e.state === 'joining') return `    ${e.name.padEnd(26)} joining  waiting for \`svc edge join\` with its token`;
  const ratio = e.cache_hit_ratio === null ? '-' : `${Math.round(e.cache_hit_ratio * 100)}%`;
  const state = e.state === 'up' ? 'up' : 'DOWN';
  return `    ${e.name.padEnd(26)} ${state.padEnd(8)} ${e.address ?? '?'}, hits ${ratio}, served ${e.bytes_served} bytes, log ${e.log_lag_seconds ?? '-'} s behind, seen ${ago(e.last_seen_at)}`;
}

/** One line, and what to do when it is not simply valid (`svc status`, `svc edge status`). */
export function describeCertificate(c: TlsStatus): string {
  const expires = `${c.names.join(', ')}; ${c.source === 'acme' ? 'ACME' : 'operator files'}; expires ${c.not_after} (${c.days_left} days)`;
  const state = c.state === 'valid' ? 'valid' : c.state.toUpperCase().replace('_', ' ');
  const next = c.next_attempt_at ? `, next attempt ${c.next_attempt_at}` : '';
  const advice: Record<TlsStatus['state'], string> = {
    valid: '',
    expiring:
      c.source === 'acme'
        ? `; renewal has not succeeded yet${next}`
        : '; replace tls.certificate_file and tls.key_file, then restart',
    renewal_failing: `; still served; last error: ${c.last_error ?? 'unknown'}${next}`,
    expired:
      c.source === 'acme'
        ? `; clients refuse it; last error: ${c.last_error ?? 'unknown'}${next}`
        : '; clients refuse it: replace tls.certificate_file and tls.key_file, then restart',
  };
  return `  tls        ${state.padEnd(8)} ${expires}${advice[c.state]}`;
}

function describeStorage(st: StorageStatus): string {
  if (st.kind === 'local') return '  storage    local    recordings in the data dir';
  const state = st.up === null ? '?' : st.up ? 'up' : 'DOWN';
  const spool = `spool ${st.spool_items} items, ${Math.round(st.spool_bytes / 1e6)} of ${Math.round(st.spool_max_bytes / 1e6)} MB, oldest ${st.spool_oldest_seconds} s`;
  return `  storage    ${state.padEnd(8)} ${st.where}, ${spool}, ${st.uploads} uploads${st.last_error ? `, last error: ${st.last_error}` : ''}`;
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
    ...(s.certificate ? [describeCertificate(s.certificate)] : []),
    `  metrics    ${s.metrics_url ?? 'off (set metrics_port in config.json)'}`,
    ...(s.jobs.length ? ['  jobs', ...s.jobs.map(describeJob)] : []),
    ...(s.nodes.length > 1 ? ['  nodes', ...s.nodes.map(describeNode)] : []),
    ...(s.edges.length ? ['  edges', ...s.edges.map(describeEdge)] : []),
    describeStorage(s.storage),
    ...(s.allow_private_webhooks
      ? [
          'Warning: allow_private_webhooks is on: webhooks may target http and private addresses; turn it off for production with `svc init --no-allow-private-webhooks`.',
        ]
      : []),
  ];
}
