/**
 * Prometheus metrics of one node (docs/operations.md, Metrics): what the parts count as they
 * work (HTTP answers, webhook attempts), what they hold now (live ingest, viewers, chat readers),
 * and what PostgreSQL says at scrape time (streams by status, webhook queue, jobs, connections).
 * Served on the operator's own listener, never on the public API port.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { ChatService } from '../domains/chat/service.js';
import type { LiveService } from '../domains/live/service.js';
import { STREAM_STATUSES } from '../domains/streams/schemas.js';
import type { ViewerCounter } from '../domains/viewers/counter.js';
import type { AttemptOutcome } from '../domains/webhooks/dispatcher.worker.js';
import type { Sql } from '../platform/db/connect.js';
import { jobLagSeconds, listJobRuns } from '../platform/jobs/queries.js';
import type { AnsweredRequest } from '../platform/http/server.js';
import type { NginxConnections } from '../platform/nginx/nginx.js';

/** A scrape never waits longer than this for PostgreSQL or nginx: their gauges are left out instead. */
const QUERY_TIMEOUT_MS = 2000;

/** What the metrics read at scrape time; each part is optional (an API-only node has no live side). */
export interface MetricSources {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  live?: LiveService;
  counter?: ViewerCounter;
  chat?: ChatService;
  nginx?: { connections(): Promise<NginxConnections | null> };
}

export class ApplianceMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly webhookAttempts: Counter<'endpoint' | 'result'>;
  private readonly webhookDuration: Histogram<'endpoint'>;
  private readonly scrapeErrors: Counter<'source'>;
  private readonly streams: Gauge<'status'>;
  private readonly queue: Gauge<'endpoint'>;
  private readonly connections: Gauge<'state'>;
  private readonly jobSuccess: Gauge<'job'>;
  private readonly jobLag: Gauge<'job'>;
  private readonly jobPeriod: Gauge<'job'>;
  private readonly kbps: Gauge<'stream'>;
  private readonly frameRate: Gauge<'stream'>;
  private readonly dropped: Gauge<'stream'>;
  private readonly ladderCpu: Gauge<'stream'>;
  private readonly viewers: Gauge<'stream'>;
  private readonly readers: Gauge;
  private readonly nginxConnections: Gauge<'state'>;
  private sources: MetricSources | null = null;
  private scraping: Promise<string> | null = null;

  constructor() {
    const registers = [this.registry];
    // Node's own (process_*, nodejs_*) under their usual names: the common Node dashboards read them.
    collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'API requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.webhookAttempts = new Counter({ name: 'svc_webhook_attempts_total', help: 'Webhook delivery attempts by endpoint; result success or failure', labelNames: ['endpoint', 'result'], registers });
    this.webhookDuration = new Histogram({
      name: 'svc_webhook_attempt_duration_seconds',
      help: "Webhook attempts' time to the receiver's answer (or the timeout), by endpoint",
      labelNames: ['endpoint'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.scrapeErrors = new Counter({ name: 'svc_scrape_errors_total', help: 'Sources a scrape could not read (their metrics were left out), by source', labelNames: ['source'], registers });

    // Read at scrape time (see refresh).
    this.streams = new Gauge({ name: 'svc_streams', help: 'Streams in the database by status', labelNames: ['status'], registers });
    this.queue = new Gauge({ name: 'svc_webhook_queue_depth', help: 'Webhook deliveries waiting for an attempt (pending), by endpoint', labelNames: ['endpoint'], registers });
    this.connections = new Gauge({ name: 'svc_postgres_connections', help: "The appliance's PostgreSQL connections (every node on this database), by state", labelNames: ['state'], registers });
    this.jobSuccess = new Gauge({ name: 'svc_job_last_success_timestamp_seconds', help: "Each job's last successful run (Unix time)", labelNames: ['job'], registers });
    this.jobLag = new Gauge({ name: 'svc_job_lag_seconds', help: "Seconds since each job's last success (or since the appliance started, when later)", labelNames: ['job'], registers });
    this.jobPeriod = new Gauge({ name: 'svc_job_period_seconds', help: 'How often each job runs: `svc status` calls it late past twice this', labelNames: ['job'], registers });
    this.kbps = new Gauge({ name: 'svc_live_ingest_kbps', help: "Each live stream's ingest bitrate on this node (kbit/s over the bitrate window)", labelNames: ['stream'], registers });
    this.frameRate = new Gauge({ name: 'svc_live_ingest_frame_rate', help: "Each live stream's frame rate as its publisher declares it", labelNames: ['stream'], registers });
    this.dropped = new Gauge({ name: 'svc_live_dropped_messages', help: "Media nginx dropped for each live stream's ladder in this publish session (the ladder fell behind)", labelNames: ['stream'], registers });
    this.ladderCpu = new Gauge({
      name: 'svc_live_ladder_cpu_seconds',
      help: "CPU seconds each live stream's ladder (ffmpeg) has used, from its start in this publish session: graph its rate",
      labelNames: ['stream'],
      registers,
    });
    this.viewers = new Gauge({ name: 'svc_viewers_watching', help: "Viewers watching each stream on this node's hosted player (the live estimate)", labelNames: ['stream'], registers });
    this.readers = new Gauge({ name: 'svc_chat_readers', help: 'Chat feed connections this node holds', registers });
    this.nginxConnections = new Gauge({
      name: 'svc_nginx_connections',
      help: "nginx's HTTP client connections (CDN, player site, chat): active in all, and reading, writing, waiting (idle keep-alive)",
      labelNames: ['state'],
      registers,
    });
  }

  /** The parts to read at scrape time, once they are built. */
  attach(sources: MetricSources): void {
    this.sources = sources;
  }

  /** For the HTTP server's `observe`. */
  readonly observeRequest = (r: AnsweredRequest): void => {
    this.httpDuration.observe({ method: r.method, route: r.route, status: String(r.status) }, r.seconds);
  };

  /** For the webhook dispatcher's `onAttempt`. */
  readonly observeWebhook = (a: AttemptOutcome): void => {
    this.webhookAttempts.inc({ endpoint: a.endpointId, result: a.ok ? 'success' : 'failure' });
    this.webhookDuration.observe({ endpoint: a.endpointId }, a.seconds);
  };

  /** The text Prometheus scrapes; scrapes at the same time share one reading (the gauges are shared). */
  scrape(): Promise<string> {
    this.scraping ??= this.refresh()
      .then(() => this.registry.metrics())
      .finally(() => (this.scraping = null));
    return this.scraping;
  }

  /**
   * Fills the gauges of what is true now. Each outside source (PostgreSQL, nginx) fills its gauges
   * or, failing or slow, leaves them out and counts a scrape error: a scrape never fails for want of one.
   */
  private async refresh(): Promise<void> {
    const s = this.sources;
    if (!s) return;
    for (const g of [this.kbps, this.frameRate, this.dropped, this.ladderCpu, this.viewers]) g.reset();
    for (const r of s.live?.ingestReadings() ?? []) {
      const labels = { stream: r.streamId };
      if (r.kbps !== null) this.kbps.set(labels, r.kbps);
      if (r.frameRate !== null) this.frameRate.set(labels, r.frameRate);
      this.dropped.set(labels, r.droppedMessages);
      if (r.ladderCpuSeconds !== null) this.ladderCpu.set(labels, r.ladderCpuSeconds);
    }
    for (const id of s.counter?.streamIds() ?? []) {
      const now = s.counter?.now(id);
      if (now) this.viewers.set({ stream: id }, now.watching);
    }
    if (s.chat) this.readers.set(s.chat.readers);
    const { sql } = s;
    const now = s.clock.now();
    const nginx = s.nginx;
    await Promise.all([
      nginx &&
        this.fromSource('nginx', [this.nginxConnections], async () => {
          const c = await nginx.connections();
          if (!c) throw new Error('stub_status unreadable');
          return Object.entries(c).map(([state, n]) => [this.nginxConnections, { state }, n]);
        }),
      this.fromSource('streams', [this.streams], async () => {
        const rows = await sql<{ status: string; n: number }[]>`select status, count(*)::int as n from streams group by status`;
        // Every status, 0 included: a graph shows none live rather than no data.
        return STREAM_STATUSES.map((status) => [this.streams, { status }, rows.find((r) => r.status === status)?.n ?? 0]);
      }),
      this.fromSource('webhook_queue', [this.queue], async () => {
        // The partial index webhook_deliveries_due holds exactly the pending ones.
        const rows = await sql<{ endpoint_id: string; n: number }[]>`select endpoint_id, count(*)::int as n from webhook_deliveries where status = 'pending' group by endpoint_id`;
        return rows.map((r) => [this.queue, { endpoint: r.endpoint_id }, r.n]);
      }),
      this.fromSource('postgres_connections', [this.connections], async () => {
        const rows = await sql<{ state: string; n: number }[]>`
          select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = 'svc' group by 1`;
        return rows.map((r) => [this.connections, { state: r.state }, r.n]);
      }),
      this.fromSource('jobs', [this.jobSuccess, this.jobLag, this.jobPeriod], async () =>
        (await listJobRuns(sql)).flatMap((job): Reading[] => [
          ...(job.last_success_at ? [[this.jobSuccess, { job: job.name }, job.last_success_at.getTime() / 1000] as Reading] : []),
          [this.jobLag, { job: job.name }, jobLagSeconds(job, now)],
          [this.jobPeriod, { job: job.name }, job.period_seconds],
        ]),
      ),
    ]);
  }

  /** `GET /metrics` on its own listener; resolves with its stop once it listens. */
  async listen(host: string, port: number): Promise<() => Promise<void>> {
    const server: Server = createServer((req, res) => {
      if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics here.\n');
        return;
      }
      this.scrape().then(
        (text) => res.writeHead(200, { 'content-type': this.registry.contentType }).end(text),
        (err: unknown) => {
          this.sources?.logger.error({ err }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('The scrape failed; see the log.\n');
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  }

  /** Empties `gauges`, then fills them from one read within the timeout; on failure they stay empty. */
  private async fromSource(source: string, gauges: Gauge<string>[], read: () => Promise<Reading[]>): Promise<void> {
    for (const g of gauges) g.reset();
    const s = this.sources as MetricSources;
    try {
      for (const [gauge, labels, value] of await withinTimeout(read())) gauge.set(labels, value);
    } catch (err) {
      this.scrapeErrors.inc({ source });
      s.logger.debug({ err, source }, 'metrics source unavailable');
    }
  }
}

/** One gauge's value for one set of labels. */
type Reading = [Gauge<string>, Record<string, string>, number];

async function withinTimeout<T>(query: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => (timer = setTimeout(() => reject(new Error('no answer in time')), QUERY_TIMEOUT_MS)));
  // A query that fails after the timeout won is nobody's error.
  query.catch(() => {});
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}
