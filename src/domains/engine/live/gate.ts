import { localHost, type Config } from '../../../config/config.js';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { BillingService } from '../../ledger/billing/service.js';
import type { Sql } from '../../../platform/db/connect.js';
import { parseRtmpStat, type StatStream } from '../../../platform/nginx/rtmp-stat.js';
import { lockStreamById, publisherGone, updateStream, type StreamRow } from '../../streams/model.js';
import { admit, wouldAdmit, type Admission } from './admission.js';
import type { PublishHook, PublisherGate } from './hooks.routes.js';
import { RelayCredentials, type RelayGrant } from './relay-credentials.js';
import * as q from './queries.js';
import type { IngestControl, WorkerControl } from './workers.js';
import type { LiveWorker } from './worker.js';

export interface GateDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  ingest: IngestControl;
  workers: WorkerControl;
  /** When a stream's media last reached the appliance (see evidence.ts); null when unknown. */
  lastMediaAt: (streamId: string) => Date | null;
  billing: BillingService;
}

/** Where the relay's connection to nginx comes from (nginx-rtmp's `addr`). */
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Publishers in and out: nginx's `on_publish` / `on_publish_done` hooks, and the publishers
 * nginx lost without saying so (it restarted, the appliance was down).
 */
export class LiveGate implements PublisherGate {
  /** Streams whose recorded publisher nginx did not list at the last check. */
  private missing = new Set<string>();
  /** What the WHIP and SRT relays publish with (issued by their services through LiveService). */
  readonly relays = new RelayCredentials();

  constructor(private readonly deps: GateDeps) {}

  /**
   * A publisher with a relay credential is the appliance's own WHIP or SRT relay: from this
   * machine, and admitted by the same rules with the key hash its publisher proved. Any other
   * publisher (RTMP) is judged by the key it sent.
   */
  async admit(hook: PublishHook): Promise<boolean> {
    const { sql, config, clock, logger } = this.deps;
    const grant = hook.relay === undefined ? null : this.redeemRelay(hook);
    if (hook.relay !== undefined && grant === null) return false;
    const req = grant
      ? { name: hook.name, key: undefined, keyHash: grant.keyHash, via: grant.via, clientId: hook.clientId }
      : { name: hook.name, key: hook.key, clientId: hook.clientId, via: hook.rtmps ? ('rtmps' as const) : undefined };
    const result = await sql.begin((tx) =>
      admit(tx, req, {
        config,
        nodeId: config.node.id,
        now: clock.now(),
        billing: this.deps.billing,
        publisherPresent: (id) => this.publisherPresent(id),
      }),
    );
    if (!result.admitted) {
      logger.warn(
        { stream_id: result.streamId, client_id: req.clientId, addr: hook.addr, reason: result.reason },
        `publisher refused: ${result.message}`,
      );
      return false;
    }
    const stream = result.stream;
    logger.info(
      { stream_id: stream.id, client_id: req.clientId, resumed: result.resumed },
      result.resumed ? 'publisher reconnected' : 'stream live',
    );
    this.missing.delete(stream.id);
    // WHIP's keyframes are the ones the appliance asks the browser for: no interval to report
    // (SRT carries the publisher's own).
    this.startWorker(stream).meter.keyframesRequested = grant?.via === 'whip';
    return true;
  }

  private redeemRelay(hook: PublishHook): RelayGrant | null {
    const local = LOOPBACK.has(hook.addr) || hook.addr === localHost(this.deps.config);
    const grant = local ? this.relays.redeem(hook.relay as string, hook.name) : null;
    if (grant === null)
      this.deps.logger.warn(
        { stream_id: hook.name, client_id: hook.clientId, addr: hook.addr },
        'publisher refused: a relay credential that is unknown, spent, for another stream or not from this machine',
      );
    return grant;
  }

  /** Whether a publisher with this key would be admitted now; changes nothing. */
  wouldAdmit(req: { name: string; key: string | undefined }): Promise<Admission> {
    const { sql, config, clock } = this.deps;
    return sql.begin((tx) =>
      wouldAdmit(tx, req, {
        config,
        nodeId: config.node.id,
        now: clock.now(),
        billing: this.deps.billing,
        publisherPresent: (id) => this.publisherPresent(id),
      }),
    );
  }

  /**
   * After a restart: a publisher that stayed connected to the nginx this start adopted gets its
   * ladder again (nginx sends no second on_publish for it).
   */
  resume(live: StreamRow[], stats: StatStream[]): void {
    for (const row of live) {
      const publisher = stats.find((s) => s.name === row.id)?.publisher;
      if (!publisher || publisher.clientId !== row.publisher_client_id) continue;
      this.deps.logger.info(
        { stream_id: row.id, client_id: publisher.clientId },
        'publisher still connected after the restart; ladder started again',
      );
      this.startWorker(row);
    }
  }

  private startWorker(stream: StreamRow): LiveWorker {
    const { sql, logger, workers } = this.deps;
    const { worker, started } = workers.publisherStarted(stream);
    worker.onRenditionsGrown = (names) =>
      void q
        .growRenditions(sql, stream.id, names)
        .catch((err: unknown) => logger.error({ stream_id: stream.id, err }, 'renditions not saved'));
    void started
      .then(async () => {
        if (worker.renditionNames) await q.saveRenditions(sql, stream.id, worker.renditionNames);
      })
      .catch((err: unknown) => logger.error({ stream_id: stream.id, err }, 'renditions not saved'));
    return worker;
  }

  /** nginx's publish_done: the publisher left now, or at `at` when it was found gone later. */
  async left(req: { name: string; clientId: string }, at?: Date): Promise<void> {
    const { sql, clock, logger } = this.deps;
    // A refused duplicate also triggers publish_done: only the admitted client counts.
    const left = await sql.begin(async (tx) => {
      const row = await lockStreamById(tx, req.name);
      if (!row || row.status !== 'live' || row.publisher_client_id !== req.clientId) return false;
      const leftAt = at ?? clock.now();
      await updateStream(tx, row.id, { publisher_client_id: null, publisher_left_at: leftAt });
      await publisherGone(tx, row.id, leftAt);
      return true;
    });
    if (!left) return;
    logger.info({ stream_id: req.name, client_id: req.clientId }, 'publisher left');
    this.deps.workers.publisherLeft(req.name);
  }

  /**
   * A publisher the database remembers but nginx no longer lists has left: after two checks in a
   * row, its reconnect window starts, timed from when its media last reached the appliance (nginx
   * restarted, or the appliance was down when it left: noticing is later than leaving).
   */
  async reconcile(live: StreamRow[], stats: StatStream[]): Promise<void> {
    const publishing = new Set(stats.filter((s) => s.publisher).map((s) => s.name));
    const missing = new Set<string>();
    for (const row of live) {
      if (row.publisher_client_id === null || publishing.has(row.id)) continue;
      if (!this.missing.has(row.id)) {
        missing.add(row.id);
        continue;
      }
      const leftAt = this.leftAt(row.id);
      await this.left({ name: row.id, clientId: row.publisher_client_id }, leftAt);
      this.deps.logger.warn(
        { stream_id: row.id, left_at: leftAt },
        'publisher no longer connected to nginx; reconnect window started when its media stopped',
      );
    }
    this.missing = missing;
  }

  /** The last media's time, never later than now (a clock set back) and now when there is none. */
  private leftAt(streamId: string): Date {
    const now = this.deps.clock.now();
    const media = this.deps.lastMediaAt(streamId);
    return media !== null && media < now ? media : now;
  }

  private async publisherPresent(streamId: string): Promise<boolean> {
    try {
      const stats = parseRtmpStat(await this.deps.ingest.stat());
      return stats.some((s) => s.name === streamId && s.publisher !== null);
    } catch {
      // Unknown: keep the recorded publisher (refusing once is safer than two publishers).
      return true;
    }
  }
}
