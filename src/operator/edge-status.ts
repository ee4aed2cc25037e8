import { existsSync, statSync } from 'node:fs';
import type { EdgeConfig } from '../config/edge.js';
import { dataPaths } from '../config/paths.js';
import { systemClock } from '../core/clock.js';
import { readEdgeState, type EdgeState } from '../composition/edge-state.js';
import { controlRequest, parseStubStatus } from '../platform/nginx/nginx.js';
import { edgeLocalUrl, edgeNginxHealthy } from './edge-run.js';
import { readTlsState, type TlsStatus } from '../platform/tls/keeper.js';
import { runningPid } from './pid.js';
import { describeCertificate } from './status.js';

export interface EdgeStatus {
  running: boolean;
  pid: number | null;
  data_dir: string;
  edge_id: string;
  name: string;
  origin_api_url: string;
  origin_cdn_url: string;
  /** Where viewers reach it, as this machine sees it. */
  url: string;
  parts: {
    nginx: { healthy: boolean; connections: number | null };
    /** The origin answered the edge's last heartbeat (read from the running edge). */
    origin: { reachable: boolean; last_contact_at: string | null; last_error: string | null };
  };
  log: {
    /** Everything logged before this was counted by the origin; null before the first batch of this run. */
    counted_until: string | null;
    lag_seconds: number | null;
    /** Log bytes written and not yet counted by the origin (null when unknown). */
    pending_bytes: number | null;
    last_error: string | null;
  };
  /** What the edge served since it started, as counted by the origin; hit_ratio over hits and misses. */
  served: EdgeState['served'] & { hit_ratio: number | null };
  refused_streams: number;
  /** The certificate the edge's https serves (tls in edge.json); null without, or before the first start got one. */
  certificate: TlsStatus | null;
  /** Running, nginx answers, the origin answered the last heartbeat, the certificate (if any) not expired. */
  healthy: boolean;
}

const fileId = (path: string) => {
  const st = statSync(path, { bigint: true });
  return { id: `${st.dev}:${st.ino}`, size: Number(st.size) };
};

/** Bytes of the log past the origin's position: the current file's rest, plus a rotated file still being read. */
function pendingBytes(config: EdgeConfig, state: EdgeState | null): number | null {
  const paths = dataPaths(config.dataDir);
  if (!state || state.log.byte_offset === null || !existsSync(paths.cdnLog)) return null;
  const current = fileId(paths.cdnLog);
  if (current.id === state.log.file_id) return Math.max(0, current.size - state.log.byte_offset);
  const rotated = existsSync(paths.cdnLogRotated) ? fileId(paths.cdnLogRotated) : null;
  if (rotated?.id === state.log.file_id) return Math.max(0, rotated.size - state.log.byte_offset) + current.size;
  return current.size;
}

/** `svc edge status`: from the edge's pid file, its nginx (health check, stub_status) and the state the running edge writes. */
export async function edgeStatus(config: EdgeConfig): Promise<EdgeStatus> {
  const paths = dataPaths(config.dataDir);
  const pid = runningPid(paths.edgePidFile);
  const running = pid !== null;
  const [nginx, stub, certificate] = await Promise.all([
    edgeNginxHealthy(config),
    controlRequest(paths.nginxControl, '/connections')
      .then(parseStubStatus)
      .catch(() => null),
    config.tls ? readTlsState(paths.tls) : null,
  ]);
  // A state file left by an edge that is no longer running says nothing about now.
  const state = running ? readEdgeState(paths.edgeState) : null;
  const now = systemClock.now().getTime();
  const until = state?.log.counted_until ?? null;
  const served = state?.served ?? { requests: 0, hits: 0, misses: 0, bytes: 0 };
  const origin = state?.origin ?? { reachable: false, last_contact_at: null, last_error: null };
  return {
    running,
    pid,
    data_dir: config.dataDir,
    edge_id: config.edgeId,
    name: config.name,
    origin_api_url: config.originApiUrl,
    origin_cdn_url: config.originCdnUrl,
    url: edgeLocalUrl(config),
    parts: { nginx: { healthy: nginx, connections: stub?.active ?? null }, origin },
    log: {
      counted_until: until,
      lag_seconds: until === null ? null : Math.max(0, Math.round((now - Date.parse(until)) / 1000)),
      pending_bytes: running ? pendingBytes(config, state) : null,
      last_error: state?.log.last_error ?? null,
    },
    served: {
      ...served,
      hit_ratio: served.hits + served.misses === 0 ? null : served.hits / (served.hits + served.misses),
    },
    refused_streams: state?.refused_streams ?? 0,
    certificate,
    healthy: running && nginx && origin.reachable && certificate?.state !== 'expired',
  };
}

const bytes = (n: number) =>
  n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${n} B`;

export function describeEdgeStatus(s: EdgeStatus): string[] {
  const health = (ok: boolean) => (ok ? 'healthy' : 'down');
  const o = s.parts.origin;
  const origin = o.reachable
    ? `reachable, last heartbeat ${o.last_contact_at}`
    : `UNREACHABLE${o.last_error ? ` (${o.last_error})` : ''}${o.last_contact_at ? `, last heartbeat ${o.last_contact_at}` : ''}`;
  const lag =
    s.log.lag_seconds === null
      ? 'nothing counted yet in this run'
      : `counted until ${s.log.counted_until} (${s.log.lag_seconds} s ago)`;
  const pending = s.log.pending_bytes === null ? '' : `, ${bytes(s.log.pending_bytes)} waiting`;
  const ratio =
    s.served.hit_ratio === null ? 'no cache lookups yet' : `hit ratio ${(s.served.hit_ratio * 100).toFixed(1)}%`;
  return [
    s.running
      ? `svc edge ${s.name} (${s.edge_id}) is running (pid ${s.pid})`
      : `svc edge ${s.name} (${s.edge_id}) is not running`,
    `  data dir   ${s.data_dir}`,
    `  nginx      ${health(s.parts.nginx.healthy).padEnd(8)} ${s.url}${s.parts.nginx.connections === null ? '' : `, ${s.parts.nginx.connections} connections`}`,
    `  origin     ${s.running ? origin : '-'} (${s.origin_api_url}, CDN ${s.origin_cdn_url})`,
    `  log        ${s.running ? `${lag}${pending}${s.log.last_error ? `; last error: ${s.log.last_error}` : ''}` : '-'}`,
    ...(s.certificate ? [describeCertificate(s.certificate)] : []),
    `  served     ${s.served.requests} requests, ${bytes(s.served.bytes)}, ${s.served.hits} hits, ${s.served.misses} misses (${ratio}) since start`,
    ...(s.refused_streams
      ? [`  refused    ${s.refused_streams} public stream addresses (closed or members-only players)`]
      : []),
  ];
}
