/**
 * Prometheus metrics of one node (docs/operations.md, Metrics): what the parts count as they
 * work (HTTP answers, webhook attempts), what they hold now (live ingest, viewers, chat readers),
 * and what PostgreSQL says at scrape time (streams by status, webhook queue, jobs, connections).
 * Served on the operator's own listener, never on the public API port.
 */
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { SpoolReadings } from '../platform/storage/spool.js';
import { listEdges } from '../domains/ledger/edges/queries.js';
import { edgeUp } from '../domains/ledger/edges/service.js';
import { presentNodes } from '../domains/streams/node-load.js';
import type { Config } from '../config/config.js';
import type { TlsStatus } from '../platform/tls/keeper.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { ChatService } from '../domains/audience/chat/service.js';
import type { LiveService } from '../domains/engine/live/service.js';
import { STREAM_STATUSES } from '../domains/streams/model.js';
import { OUTPUT_STATUSES } from '../domains/engine/outputs/schemas.js';
import type { ViewerCounter } from '../domains/audience/viewers/counter.js';
import type { AttemptOutcome } from '../domains/back-office/webhooks/dispatcher.worker.js';
import type { Sql } from '../platform/db/connect.js';
import { jobLagSeconds, listJobRuns } from '../platform/jobs/queries.js';
import type { AnsweredRequest } from '../platform/http/server.js';
import type { NginxConnections } from '../platform/nginx/nginx.js';

/** A scrape never waits longer than this for PostgreSQL or nginx: their gauges are left out instead. */
const QUERY_TIMEOUT_MS = 2000;

/** What the metrics read at scrape time; each part is optional (an API-only node has no live side). */
const TLS_STATES: readonly TlsStatus['state'][] = ['valid', 'expiring', 'renewal_failing', 'expired'];

export interface MetricSources {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  live?: LiveService;
  counter?: ViewerCounter;
  chat?: ChatService;
  nginx?: { connections(): Promise<NginxConnections | null> };
  /** The served certificate, on nodes with TLS. */
  certificate?: (() => TlsStatus) | null;
  /** The stream costs that nodes' reservations are counted at. */
  capacity: Config['capacity'];
  /** Object storage and its spool, on nodes with it configured. */
  storage?: { bucket: string; readings(): SpoolReadings } | null;
}

export class ApplianceMetrics {
  readonly registry = new Registry();
  // Counted as things happen.
  private readonly httpDuration = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'API requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly webhookAttempts = new Counter({
    name: 'svc_webhook_attempts_total',
    help: 'Webhook delivery attempts by endpoint; result success or failure',
    labelNames: ['endpoint', 'result'],
    registers: [this.registry],
  });
  private readonly webhookDuration = new Histogram({
    name: 'svc_webhook_attempt_duration_seconds',
    help: "Webhook attempts' time to the receiver's answer (or the timeout), by endpoint",
    labelNames: ['endpoint'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly scrapeErrors = new Counter({
    name: 'svc_scrape_errors_total',
    help: 'Sources a scrape could not read (their metrics were left out), by source',
    labelNames: ['source'],
    registers: [this.registry],
  });
  // Read at scrape time (see refresh).
  private readonly streams = this.gauge('svc_streams', 'Streams in the database by status', ['status']);
  private readonly queue = this.gauge(
    'svc_webhook_queue_depth',
    'Webhook deliveries waiting for an attempt (pending), by endpoint',
    ['endpoint'],
  );
  private readonly connections = this.gauge(
    'svc_postgres_connections',
    "The appliance's PostgreSQL connections (every node on this database), by state",
    ['state'],
  );
  private readonly jobSuccess = this.gauge(
    'svc_job_last_success_timestamp_seconds',
    "Each job's last successful run (Unix time)",
    ['job'],
  );
  private readonly jobLag = this.gauge(
    'svc_job_lag_seconds',
    "Seconds since each job's last success (or since the appliance started, when later)",
    ['job'],
  );
  private readonly jobPeriod = this.gauge(
    'svc_job_period_seconds',
    'How often each job runs: `svc status` calls it late past twice this',
    ['job'],
  );
  private readonly kbps = this.gauge(
    'svc_live_ingest_kbps',
    "Each live stream's ingest bitrate on this node (kbit/s over the bitrate window)",
    ['stream'],
  );
  private readonly frameRate = this.gauge(
    'svc_live_ingest_frame_rate',
    "Each live stream's frame rate as its publisher declares it",
    ['stream'],
  );
  private readonly dropped = this.gauge(
    'svc_live_dropped_messages',
    "Media nginx dropped for each live stream's ladder in this publish session (the ladder fell behind)",
    ['stream'],
  );
  private readonly ladderCpu = this.gauge(
    'svc_live_ladder_cpu_seconds',
    "CPU seconds each live stream's ladder (ffmpeg) has used since it started in this publish session: graph its rate",
    ['stream'],
  );
  private readonly viewers = this.gauge(
    'svc_viewers_watching',
    "Viewers watching each stream on this node's hosted player (the live estimate)",
    ['stream'],
  );
  private readonly readers = this.gauge('svc_chat_readers', 'Chat feed connections this node holds', []);
  private readonly nginxConnections = this.gauge(
    'svc_nginx_connections',
    "nginx's HTTP client connections (CDN, player site, chat): active in all, and reading, writing, waiting (idle keep-alive)",
    ['state'],
  );
  private readonly edgeUp = this.gauge(
    'svc_edge_up',
    'Each edge in front of this origin: 1 when it was heard from within 15 s (CDNs are not listed)',
    ['edge'],
  );
  private readonly edgeRequests = this.gauge(
    'svc_edge_requests',
    'Requests each edge served, as counted from its log, by what its cache did (hit, miss: fetched from the origin, none); only grows: graph its rate',
    ['edge', 'cache'],
  );
  private readonly edgeBytes = this.gauge(
    'svc_edge_served_bytes',
    'Body bytes each edge served, as counted from its log (only grows: graph its rate)',
    ['edge'],
  );
  private readonly edgeLogLag = this.gauge(
    'svc_edge_log_lag_seconds',
    "How far behind now each edge's log is counted (billing and the cdn series wait for the slowest)",
    ['edge'],
  );
  private readonly nodeUp = this.gauge(
    'svc_node_up',
    'Each ingest node of the cluster: 1 when it heartbeated within 10 s and its nginx takes publishers',
    ['node'],
  );
  private readonly nodeStreams = this.gauge(
    'svc_node_streams',
    'Streams reserved on each node, by status (pending: waiting for their publisher; live: its ladders run)',
    ['node', 'status'],
  );
  private readonly nodeReserved = this.gauge(
    'svc_node_reserved_cores',
    'Cores reserved on each node by its pending and live streams, at the configured stream costs',
    ['node'],
  );
  private readonly nodeBudget = this.gauge(
    'svc_node_budget_cores',
    'Cores each node lets its ladders use (its cores less those kept for the rest); reservations stop there',
    ['node'],
  );
  private readonly nodeLoad = this.gauge(
    'svc_node_load',
    "Each node's 1-minute load average at its last heartbeat, in cores",
    ['node'],
  );
  private readonly outputStatus = this.gauge(
    'svc_output_status',
    'Each enabled output of a live stream: 1 for its current status (idle, connecting, active, errored), 0 for the others',
    ['stream', 'output', 'status'],
  );
  private readonly outputBytes = this.gauge(
    'svc_output_bytes_sent',
    'Bytes each output of a live stream has pushed since it was created (billed as delivery)',
    ['stream', 'output'],
  );
  /** Only on nodes with TLS (registered by `attach`): an expiry of 0 elsewhere would fire every alert. */
  private certificate: { expiry: Gauge<string>; state: Gauge<string> } | null = null;
  /** Object storage, by bucket: no series on nodes without it (a 0 there would read as "down"). */
  private readonly storage = {
    up: this.gauge('svc_storage_up', '1 when the object storage answered the last upload or probe, else 0', ['bucket']),
    bytes: this.gauge('svc_storage_spool_bytes', 'Bytes in the disk spool waiting for the object storage', ['bucket']),
    items: this.gauge('svc_storage_spool_items', 'Uploads in the disk spool waiting for the object storage', [
      'bucket',
    ]),
    oldest: this.gauge(
      'svc_storage_spool_oldest_seconds',
      'Age of the oldest upload waiting in the spool (0 when empty): alert above a few minutes',
      ['bucket'],
    ),
    uploads: this.gauge('svc_storage_uploads_total', 'Uploads to the object storage since the start', ['bucket']),
    uploadedBytes: this.gauge(
      'svc_storage_uploaded_bytes_total',
      'Bytes uploaded to the object storage since the start',
      ['bucket'],
    ),
    failed: this.gauge('svc_storage_upload_failures_total', 'Failed upload tries (each retried) since the start', [
      'bucket',
    ]),
  };
  private sources: MetricSources | null = null;
  private scraping: Promise<string> | null = null;

  constructor() {
    // Node's own (process_*, nodejs_*) under their usual names: the common Node dashboards read them.
    collectDefaultMetrics({ register: this.registry });
  }

  /** The parts to read at scrape time, once they are built. */
  attach(sources: MetricSources): void {
    this.sources = sources;
    if (sources.certificate && !this.certificate)
      this.certificate = {
        expiry: this.gauge(
          'svc_tls_certificate_expiry_timestamp_seconds',
          'When the certificate nginx serves expires (Unix time): alert well before it, e.g. under 14 days',
          [],
        ),
        state: this.gauge(
          'svc_tls_certificate_state',
          "1 for the served certificate's state (valid, expiring, renewal_failing, expired), 0 for the others",
          ['state'],
        ),
      };
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
    if (s.certificate && this.certificate) {
      const c = s.certificate();
      this.certificate.expiry.set(Date.parse(c.not_after) / 1000);
      for (const state of TLS_STATES) this.certificate.state.set({ state }, state === c.state ? 1 : 0);
    }
    if (s.storage) {
      const r = s.storage.readings();
      const at = { bucket: s.storage.bucket };
      this.storage.up.set(at, r.up === false ? 0 : 1);
      this.storage.bytes.set(at, r.bytes);
      this.storage.items.set(at, r.items);
      this.storage.oldest.set(at, r.oldestSeconds);
      this.storage.uploads.set(at, r.uploads);
      this.storage.uploadedBytes.set(at, r.uploadedBytes);
      this.storage.failed.set(at, r.failedAttempts);
    }
    const { sql, capacity } = s;
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
        const rows = await sql<
          { status: string; n: number }[]
        >`select status, count(*)::int as n from streams group by status`;
        // Every status, 0 included: a graph shows none live rather than no data.
        return STREAM_STATUSES.map((status) => [
          this.streams,
          { status },
          rows.find((r) => r.status === status)?.n ?? 0,
        ]);
      }),
      this.fromSource('webhook_queue', [this.queue], async () => {
        // The partial index webhook_deliveries_due holds exactly the pending ones.
        const rows = await sql<
          { endpoint_id: string; n: number }[]
        >`select endpoint_id, count(*)::int as n from webhook_deliveries where status = 'pending' group by endpoint_id`;
        return rows.map((r) => [this.queue, { endpoint: r.endpoint_id }, r.n]);
      }),
      this.fromSource('postgres_connections', [this.connections], async () => {
        const rows = await sql<{ state: string; n: number }[]>`
          select coalesce(state, 'unknown') as state, count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = 'svc' group by 1`;
        return rows.map((r) => [this.connections, { state: r.state }, r.n]);
      }),
      this.fromSource('edges', [this.edgeUp, this.edgeRequests, this.edgeBytes, this.edgeLogLag], async () =>
        (await listEdges(sql))
          .filter((row) => row.kind === 'edge')
          .flatMap((row): Reading[] => {
            const edge = { edge: row.name };
            const requests = (cache: string, n: number): Reading => [this.edgeRequests, { ...edge, cache }, Number(n)];
            const others = Number(row.requests) - Number(row.cache_hits) - Number(row.cache_misses);
            return [
              [this.edgeUp, edge, edgeUp(row, now) ? 1 : 0],
              requests('hit', row.cache_hits),
              requests('miss', row.cache_misses),
              // Refused and local answers (403, 404, /healthz): no cache involved.
              requests('none', others),
              [this.edgeBytes, edge, Number(row.bytes_served)],
              ...(row.counted_until
                ? [
                    [
                      this.edgeLogLag,
                      edge,
                      Math.max(0, (now.getTime() - row.counted_until.getTime()) / 1000),
                    ] as Reading,
                  ]
                : []),
            ];
          }),
      ),
      this.fromSource(
        'nodes',
        [this.nodeUp, this.nodeStreams, this.nodeReserved, this.nodeBudget, this.nodeLoad],
        async () =>
          (await presentNodes(sql, capacity, now)).flatMap((n): Reading[] => {
            const node = { node: n.name };
            return [
              [this.nodeUp, node, n.state === 'up' ? 1 : 0],
              [this.nodeStreams, { ...node, status: 'pending' }, n.pending],
              [this.nodeStreams, { ...node, status: 'live' }, n.live],
              [this.nodeReserved, node, n.reserved_cores],
              [this.nodeBudget, node, n.budget_cores],
              ...(n.measured_load === null ? [] : [[this.nodeLoad, node, n.measured_load] as Reading]),
            ];
          }),
      ),
      this.fromSource('outputs', [this.outputStatus, this.outputBytes], async () => {
        const rows = await sql<{ id: string; stream_id: string; status: string; bytes_sent: string }[]>`
          select o.id, o.stream_id, o.status, o.bytes_sent::text from stream_outputs o
          join streams s on s.id = o.stream_id where s.status = 'live' and o.enabled`;
        return rows.flatMap((o): Reading[] => {
          const labels = { stream: o.stream_id, output: o.id };
          return [
            ...OUTPUT_STATUSES.map((status): Reading => [
              this.outputStatus,
              { ...labels, status },
              status === o.status ? 1 : 0,
            ]),
            [this.outputBytes, labels, Number(o.bytes_sent)],
          ];
        });
      }),
      this.fromSource('jobs', [this.jobSuccess, this.jobLag, this.jobPeriod], async () =>
        (await listJobRuns(sql)).flatMap((job): Reading[] => [
          ...(job.last_success_at
            ? [[this.jobSuccess, { job: job.name }, job.last_success_at.getTime() / 1000] as Reading]
            : []),
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
    return () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
  }

  private gauge<L extends string>(name: string, help: string, labelNames: L[]): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
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
  const late = new Promise<never>(
    (_resolve, reject) => (timer = setTimeout(() => reject(new Error('no answer in time')), QUERY_TIMEOUT_MS)),
  );
  // A query that fails after the timeout won is nobody's error.
  query.catch(() => {});
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}
