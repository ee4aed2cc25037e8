import { edgeAddress, type EdgeConfig, type EdgeSecrets } from '../config/edge.js';
import { dataPaths } from '../config/paths.js';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { stopInReverse, type Stop } from '../core/stops.js';
import { QuietRetry } from '../core/quiet-retry.js';
import { Repeater } from '../core/repeater.js';
import { MarkerFolder } from '../platform/system/marker-folder.js';
import type { ServedCounts } from '../domains/ledger/cdnlog/aggregate.js';
import type { ReaderPosition } from '../domains/ledger/cdnlog/queries.js';
import { CdnLogReader } from '../domains/ledger/cdnlog/reader.js';
import type { BatchRows, LogSink } from '../domains/ledger/cdnlog/sink.js';
import { ApiLogSink } from '../domains/ledger/edges/api-log-sink.js';
import { JsonApiError, requestJson } from '../platform/http/json-client.js';
import { EdgeNginx } from '../platform/nginx/edge-nginx.js';
import { nginxWorkerUser } from '../platform/nginx/nginx.js';
import { Supervisor } from '../platform/process/supervisor.js';
import { protectEdgeDataDir } from '../platform/system/data-dir.js';
import { writeEdgeState, type EdgeState } from './edge-state.js';

/** The heartbeat's answer (docs/decisions.md, "Edge tier"). */
interface HeartbeatAnswer {
  refused: string[];
  now: string;
}

/** Counts what the batches the origin accepted served (for `svc edge status`), passing everything on. */
class CountingSink implements LogSink {
  readonly served: ServedCounts = { requests: 0, hits: 0, misses: 0, bytes: 0 };
  /** Where the origin's count of this log stands after the last accepted batch. */
  last: ReaderPosition | null = null;

  constructor(private readonly inner: LogSink) {}

  position(): Promise<ReaderPosition> {
    return this.inner.position();
  }

  async commit(from: ReaderPosition, to: ReaderPosition, batch: BatchRows): Promise<boolean> {
    const ok = await this.inner.commit(from, to, batch);
    if (ok) {
      for (const key of ['requests', 'hits', 'misses', 'bytes'] as const) this.served[key] += batch.served[key];
      this.last = to;
    }
    return ok;
  }
}

export interface RunningEdge {
  nginx: EdgeNginx;
  /** What `svc edge status` reads (also written to run/edge-state.json). */
  state(): EdgeState;
  stop(): Promise<void>;
}

/** An origin's refusal in its own words, and what to do when it no longer knows this edge. */
function originFailure(err: unknown): Error {
  const error = err instanceof Error ? err : new Error(String(err));
  // The heartbeat's client names the code; the log sink quotes the origin's answer.
  if (error instanceof JsonApiError ? error.code === 'edge_unauthorized' : error.message.includes('edge_unauthorized'))
    return new Error(
      `edge_unauthorized: the origin refuses this edge's credential (removed with \`svc edges remove\`?): \`svc edge down\`, then join again with a new token from \`svc edges add\``,
    );
  return error instanceof JsonApiError ? new Error(`${error.code}: ${error.message}`) : error;
}

/**
 * The composition root of an edge (docs/operations.md, "Edges"): its nginx, supervised; the log
 * shipper (the CDN log reader with the origin's API as its sink, every `log_ship_seconds`); the
 * heartbeat (every `heartbeat_seconds`: says the edge is up, brings the refused public addresses).
 * No database. While the origin is away both retry with backoff, quietly, and nginx serves what
 * it has; nothing here stops because of the origin. Each start pushes its stop.
 */
export async function startEdge(opts: {
  config: EdgeConfig;
  secrets: EdgeSecrets;
  logger: Logger;
  clock?: Clock;
  onProgress?: (line: string) => void;
  /** Where batches go (default: the origin's API). */
  sink?: LogSink;
}): Promise<RunningEdge> {
  const { config, secrets, logger } = opts;
  const clock = opts.clock ?? systemClock;
  const paths = dataPaths(config.dataDir);
  const stops: Stop[] = [];
  const stop = stopInReverse(stops, logger);
  try {
    const worker = await nginxWorkerUser();
    protectEdgeDataDir(config.dataDir, worker);
    const supervisor = new Supervisor();
    stops.push({ part: 'child processes', stop: () => supervisor.stopAll() });
    const nginx = new EdgeNginx({ config, secrets, logger: logger.child({ domain: 'nginx' }), worker });
    await nginx.start(supervisor);
    stops.push({ part: 'nginx', stop: () => nginx.stop() });
    opts.onProgress?.(`edge serving viewers on ${config.listenHost}:${config.cdnPort} from ${config.originCdnUrl}`);

    const started = clock.now();
    const origin = new QuietRetry('the heartbeat to the origin', logger.child({ domain: 'heartbeat' }), 1000);
    const shipping = new QuietRetry('shipping the log to the origin', logger.child({ domain: 'cdnlog' }), 1000);
    const refusals = new MarkerFolder(paths.publicRefused);
    let lastContact: string | null = null;
    let refused = 0;
    let connections = 0;
    const sink = new CountingSink(
      opts.sink ?? new ApiLogSink({ originApiUrl: config.originApiUrl, credential: secrets.credential }),
    );
    const reader = new CdnLogReader({
      sink,
      clock,
      logger,
      file: paths.cdnLog,
      rotatedFile: paths.cdnLogRotated,
      maxBytes: config.logMaxBytes,
      reopen: () => nginx.reopenLogs(),
    });

    const state = (): EdgeState => ({
      pid: process.pid,
      edge_id: config.edgeId,
      started_at: started.toISOString(),
      updated_at: clock.now().toISOString(),
      nginx_up: nginx.ready,
      connections,
      origin: {
        reachable: !origin.failing && origin.lastSuccessMs !== null,
        last_contact_at: lastContact,
        last_error: origin.lastError,
      },
      log: {
        counted_until: sink.last?.counted_until?.toISOString() ?? null,
        file_id: sink.last?.file_id ?? null,
        byte_offset: sink.last?.byte_offset ?? null,
        last_error: shipping.lastError,
      },
      served: { ...sink.served },
      refused_streams: refused,
    });
    const save = () => {
      try {
        writeEdgeState(paths.edgeState, state());
      } catch (err) {
        logger.warn({ err }, 'could not write the edge state file');
      }
    };

    const beat = async () => {
      // The probe also tells whether nginx is up (stub_status on the control socket).
      const status = await nginx.stubStatus().catch(() => null);
      connections = status?.active ?? 0;
      if (origin.due()) {
        try {
          const answer = await requestJson<HeartbeatAnswer>(`${config.originApiUrl}/edge/v1/heartbeat`, {
            bearer: secrets.credential,
            body: { address: edgeAddress(config), nginx_up: nginx.ready },
            timeoutMs: 5000,
          });
          refusals.reconcile(answer.refused);
          refused = answer.refused.length;
          lastContact = clock.now().toISOString();
          origin.succeeded();
        } catch (err) {
          origin.failed(originFailure(err));
        }
      }
      save();
    };
    const heartbeat = new Repeater(beat, config.heartbeatSeconds * 1000);
    // The first beat before viewers are told to come: the refusals are current from the start.
    await beat();
    heartbeat.start();
    stops.push({ part: 'heartbeat', stop: () => heartbeat.stop() });

    const abort = new AbortController();
    const ship = async () => {
      if (!shipping.due()) return;
      try {
        await reader.run(abort.signal);
        shipping.succeeded();
      } catch (err) {
        shipping.failed(originFailure(err));
      }
      save();
    };
    const shipper = new Repeater(ship, config.logShipSeconds * 1000);
    shipper.start();
    // Lines logged after the last batch stay in the log: the next start ships them (the position is the origin's).
    stops.push({
      part: 'log shipper',
      stop: async () => {
        abort.abort();
        await shipper.stop();
      },
    });
    return { nginx, state, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
