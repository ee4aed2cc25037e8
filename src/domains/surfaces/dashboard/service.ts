import type { Clock } from '../../../core/clock.js';
import { listEdges } from '../../ledger/edges/queries.js';
import { presentEdge } from '../../ledger/edges/present.js';
import { ApiError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { formatUsd } from '../../../core/money.js';
import { addSeconds, iso } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import { listJobRuns } from '../../../platform/jobs/queries.js';
import { jobStatus } from '../../../platform/jobs/status.js';
import { listAccounts } from '../../ledger/accounts/model.js';
import type { BillingService } from '../../ledger/billing/service.js';
import type { CdnAddresses } from '../../ledger/cdn/addresses.js';
import type { IngestHistory } from '../../engine/live/history.js';
import { FINISHED } from '../../streams/model.js';
import type { ViewersService } from '../../audience/viewers/service.js';
import * as q from './queries.js';
import type { DashboardOutput, DashboardStream, Health, Overview, StreamSeries } from './schemas.js';
import { parseOutputUrl } from '../../engine/outputs/target.js';

/** Streams that are not live shown beside the live ones; recordings, accounts, endpoints listed. */
const RECENT_STREAMS = 20;
const RECORDINGS = 20;
const ACCOUNTS = 100;
const ENDPOINTS = 50;
/** The webhook endpoints' counts cover this window. */
const DELIVERY_WINDOW_SECONDS = 24 * 3600;

export interface DashboardDeps {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  cdn: CdnAddresses;
  playerUrl: string;
  viewers: ViewersService;
  history: IngestHistory;
  billing: BillingService;
}

import type { CertificateHealth } from '../../../platform/tls/health.js';

/** What the operator dashboard shows: every account's streams, money, webhooks and the health of the parts. */
export class DashboardService {
  constructor(private readonly deps: DashboardDeps) {}

  /**
   * Everything the dashboard's first screen shows. `parts` is what `/healthz` reports. A section
   * whose read fails (the database is away) is null and named in `unavailable`: the health part
   * still tells the operator why.
   */
  async overview(parts: Record<string, boolean>, certificate: CertificateHealth | null = null): Promise<Overview> {
    const unavailable: string[] = [];
    const section = async <T>(name: string, read: () => Promise<T>): Promise<T | null> => {
      try {
        return await read();
      } catch (err) {
        this.deps.logger.debug({ err, section: name }, 'dashboard section unavailable');
        unavailable.push(name);
        return null;
      }
    };
    const [jobs, streams, recordings, accounts, webhooks, edges] = await Promise.all([
      section('jobs', () => this.jobs()),
      section('streams', () => this.streams()),
      section('recordings', () => this.recordings()),
      section('accounts', () => this.accounts()),
      section('webhooks', () => this.webhooks()),
      section('edges', async () => (await listEdges(this.deps.sql)).map((e) => presentEdge(e, this.deps.clock.now()))),
    ]);
    const health: Health = {
      healthy:
        Object.values(parts).every(Boolean) &&
        jobs !== null &&
        !jobs.some((j) => j.late) &&
        certificate?.state !== 'expired',
      parts,
      jobs,
      certificate,
    };
    return {
      object: 'dashboard_overview',
      generated_at: this.deps.clock.now().toISOString(),
      health,
      streams,
      recordings,
      accounts,
      webhooks,
      edges,
      unavailable,
    };
  }

  /** One stream's ingest and viewers over time; `404 not_found` for an unknown stream. */
  async series(streamId: string): Promise<StreamSeries> {
    const { sql, viewers, history } = this.deps;
    const status = await q.streamStatus(sql, streamId);
    if (!status) throw new ApiError('not_found', 'No such stream.');
    const [ingest, player, cdn] = await Promise.all([
      history.series(streamId),
      viewers.series(streamId),
      viewers.cdnSeries(streamId),
    ]);
    return {
      object: 'dashboard_stream_series',
      stream_id: streamId,
      ingest: ingest.map((s) => ({
        at: s.at.toISOString(),
        kbps: s.kbps,
        keyframe_interval_seconds: s.keyframe_interval_seconds,
        limit_warning: s.limit_warning,
        keyframe_warning: s.keyframe_warning,
      })),
      player: player.map((p) => ({ minute: p.minute, watching: p.watching })),
      cdn: cdn.cdn,
      viewers_now: FINISHED.includes(status) ? null : viewers.viewersNow(streamId),
    };
  }

  private async jobs() {
    const now = this.deps.clock.now();
    return (await listJobRuns(this.deps.sql)).map((row) => jobStatus(row, now));
  }

  private async streams(): Promise<DashboardStream[]> {
    const { sql, cdn, playerUrl, viewers } = this.deps;
    const rows = await q.liveAndRecentStreams(sql, RECENT_STREAMS);
    // Outputs push only while live: those of the live streams, read in one query for all of them.
    const live = rows.filter((row) => row.status === 'live').map((row) => row.id);
    const outputs = new Map<string, DashboardOutput[]>();
    for (const o of await q.outputsOfStreams(sql, live))
      outputs.set(o.stream_id, [...(outputs.get(o.stream_id) ?? []), presentOutput(o)]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      account_id: row.account_id,
      account_name: row.account_name,
      status: row.status,
      created_at: row.created_at.toISOString(),
      went_live_at: iso(row.went_live_at),
      ended_at: iso(row.ended_at),
      end_reason: row.end_reason,
      ingest: row.ingest,
      viewers_now: FINISHED.includes(row.status) ? null : viewers.viewersNow(row.id),
      thumbnail_url: row.thumbnail_at ? cdn.thumbnail(row.id) : null,
      embed_url: `${playerUrl}/${row.id}`,
      outputs: outputs.get(row.id) ?? [],
    }));
  }

  private async recordings() {
    return (await q.latestRecordings(this.deps.sql, RECORDINGS)).map((r) => ({
      ...r,
      ready_at: iso(r.ready_at),
      delete_at: iso(r.delete_at),
    }));
  }

  private async accounts() {
    const accounts = await listAccounts(this.deps.sql, ACCOUNTS);
    const money = new Map((await this.deps.billing.moneyOf(accounts.map((a) => a.id))).map((m) => [m.id, m]));
    return accounts.map((a) => {
      const m = money.get(a.id);
      return {
        id: a.id,
        name: a.name,
        state: a.state,
        billing_mode: a.billing_mode,
        balance_usd: formatUsd(m?.balance_usd ?? '0'),
        available_usd: formatUsd(m?.available_usd ?? '0'),
        balance_warning: m?.balance_warning ?? null,
      };
    });
  }

  private async webhooks() {
    const since = addSeconds(this.deps.clock.now(), -DELIVERY_WINDOW_SECONDS);
    return (await q.endpointHealth(this.deps.sql, since, ENDPOINTS)).map((e) => ({
      ...e,
      last_attempt_at: iso(e.last_attempt_at),
    }));
  }
}

/** An output row as the dashboard shows it (the row has no key: `outputsOfStreams` does not read it). */
function presentOutput(o: q.DashboardOutputRow): DashboardOutput {
  return {
    id: o.id,
    name: o.name,
    host: outputHost(o.url),
    url: o.url,
    enabled: o.enabled,
    status: o.status,
    last_error: o.last_error,
    connected_at: iso(o.connected_at),
    bytes_sent: o.bytes_sent,
  };
}

/** Saved URLs passed `parseOutputUrl` when they were written; the whole URL if one no longer does. */
function outputHost(url: string): string {
  try {
    return parseOutputUrl(url).host;
  } catch {
    return url;
  }
}
