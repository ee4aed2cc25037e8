import { dataPaths } from '../../../config/paths.js';
import type { Clock } from '../../../core/clock.js';
import { sha256 } from '../../../core/ids.js';
import type { BillingService } from '../../ledger/billing/service.js';
import type { Sql } from '../../../platform/db/connect.js';
import { parseRtmpStat, type StatStream } from '../../../platform/nginx/rtmp-stat.js';
import type { EndReason, StreamRow } from '../../streams/model.js';
import type { Admission } from './admission.js';
import { EndingRules } from './ending.js';
import { lastMediaAt } from './evidence.js';
import { LiveGate } from './gate.js';
import type { PublishHook, PublisherGate } from './hooks.routes.js';
import { OriginCleanup } from './origin.js';
import { isDatabaseUnavailable } from '../../../platform/db/errors.js';
import * as q from './queries.js';
import { WorkerControl, type WorkerControlDeps } from './workers.js';

export type { IngestControl, OutputControl } from './workers.js';

/** The workers' parts, and the database and clock the gate and the ending rules use. */
export interface LiveDeps extends WorkerControlDeps {
  sql: Sql;
  clock: Clock;
  /** Admission checks the account's available credit and monthly ingest hours. */
  billing: BillingService;
}

export interface IngestReading {
  streamId: string;
  kbps: number | null;
  frameRate: number | null;
  /** Media nginx dropped for the ladder in this publish session (it fell behind). */
  droppedMessages: number;
  ladderCpuSeconds: number | null;
}

/** The origin sweep runs on every tenth tick: folders linger a minute anyway. */
const SWEEP_EVERY_TICKS = 10;

/**
 * The live side of streams on this node, put together from its duties: the gate (publishers in
 * and out), the workers (a ladder and uploader per live stream), the ending rules (windows,
 * durations, limits) and the origin cleanup. A tick every `sample_seconds` drives them.
 */
export class LiveService implements PublisherGate {
  private readonly workers: WorkerControl;
  private readonly gate: LiveGate;
  private readonly ending: EndingRules;
  private readonly origin: OriginCleanup;
  private ticks = 0;
  private waitingForDatabase = false;
  private timer: NodeJS.Timeout | null = null;
  private statFailing = false;
  /** The last two ticks that checked the publishers against nginx's statistics. */
  private checks: Date[] = [];

  constructor(private readonly deps: LiveDeps) {
    this.workers = new WorkerControl(deps);
    this.gate = new LiveGate({
      ...deps,
      workers: this.workers,
      lastMediaAt: (id) => lastMediaAt(deps.config.dataDir, id),
    });
    this.ending = new EndingRules({ ...deps, ended: (id) => this.ended(id) });
    this.origin = new OriginCleanup({
      store: deps.media,
      // The media folder is this machine's: the origin is here, and its folders' ages tell what to sweep.
      sweepDir: deps.media.kind === 'local' ? dataPaths(deps.config.dataDir).origin : null,
      clock: deps.clock,
      logger: deps.logger,
      inUse: (id) => this.workers.has(id),
    });
  }

  /**
   * Up to when the publish sessions still open are true: a publisher gone from nginx is closed at
   * the second check that misses it, so every open one was there at the check before the last.
   * Null until two checks ran (just started: a publisher may have left while the appliance was down).
   */
  publishersCheckedUntil(): Date | null {
    return this.checks.length === 2 ? (this.checks[0] as Date) : null;
  }

  /** What each live stream's publisher sends to this node, as of the last tick (metrics). */
  ingestReadings(): IngestReading[] {
    return this.workers.all().map((w) => ({
      streamId: w.streamId,
      kbps: w.meter.kbps(),
      frameRate: w.frameRate,
      droppedMessages: w.droppedSeen,
      ladderCpuSeconds: w.ladderCpuSeconds,
    }));
  }

  get nodeReady(): boolean {
    return this.deps.ingest.ready;
  }

  admit(req: PublishHook): Promise<boolean> {
    return this.gate.admit(req);
  }

  /** A one-time credential the WHIP relay publishes `streamId` with instead of `key` (see RelayCredentials). */
  issueRelayCredential(streamId: string, key: string): string {
    return this.gate.relays.issue(streamId, { keyHash: sha256(key), via: 'whip' });
  }

  /**
   * The SRT relay's: it stands for the key hash its passphrase was derived from (a publisher who
   * knows the passphrase knew the key), and only while `holds` says that relay is the publisher.
   */
  issueSrtRelayCredential(streamId: string, keyHash: Buffer, holds: () => boolean): string {
    return this.gate.relays.issue(streamId, { keyHash, via: 'srt' }, holds);
  }

  withdrawRelayCredential(credential: string): void {
    this.gate.relays.withdraw(credential);
  }

  left(req: { name: string; clientId: string }): Promise<void> {
    return this.gate.left(req);
  }

  /** Whether a publisher with this key would be admitted now (WHIP asks before it answers a browser). */
  wouldAdmit(req: { name: string; key: string | undefined }): Promise<Admission> {
    return this.gate.wouldAdmit(req);
  }

  /** Ends a live stream now with `reason`; false when it was not live. */
  endNow(streamId: string, reason: EndReason): Promise<boolean> {
    return this.ending.endNow(streamId, reason, this.deps.clock.now());
  }

  /** A stream ended (DELETE, a job, a limit): its publisher is dropped and its worker finishes. Never rejects. */
  async ended(streamId: string): Promise<void> {
    if (await this.workers.ended(streamId)) this.origin.removeLater(streamId);
  }

  /** Every few seconds: reconnect windows, maximum durations, ingest measurements and limits. */
  async tick(): Promise<void> {
    const now = this.deps.clock.now();
    await this.ending.endExpired(now);
    const stats = await this.readStats();
    const before = this.workers.lastSerial;
    const all = await q.liveStreams(this.deps.sql);
    const live = this.mine(all);
    // A stream ended elsewhere (another node, a job) still has its worker here: finish it. One
    // whose publisher went to another node (this one was cut off for a while) just loses its
    // worker here: its media on the origin are the other node's now.
    // Workers made after the query began are too new to judge by it.
    const liveIds = new Set(all.map((r) => r.id));
    const mineIds = new Set(live.map((r) => r.id));
    for (const worker of this.workers.madeBefore(before)) {
      if (!liveIds.has(worker.streamId)) await this.ended(worker.streamId);
      else if (!mineIds.has(worker.streamId)) await this.workers.ended(worker.streamId);
    }
    if (stats) {
      await this.gate.reconcile(live, stats);
      this.checks = [...this.checks.slice(-1), now];
    }
    await this.ending.measure(live, stats, (id) => this.workers.get(id), now);
    await this.deps.outputs?.tick([...mineIds]);
    if (++this.ticks % SWEEP_EVERY_TICKS === 1) this.origin.sweep([...liveIds, ...this.workers.ids()]);
  }

  /**
   * Ticks every `sample_seconds` on this node (workers live in this process). First, what an
   * earlier start left: its ladders go, and publishers still connected to nginx (adopted) get a
   * ladder again.
   */
  async start(): Promise<void> {
    this.workers.killLeftovers();
    const stats = await this.readStats();
    if (stats) this.gate.resume(this.mine(await q.liveStreams(this.deps.sql)), stats);
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.tick()
        .then(() => {
          if (this.waitingForDatabase) this.deps.logger.info('live tick runs again');
          this.waitingForDatabase = false;
        })
        .catch((err: unknown) => {
          // An outage is said once, not every tick.
          if (!isDatabaseUnavailable(err)) this.deps.logger.error({ err }, 'live tick failed');
          else if (!this.waitingForDatabase) this.deps.logger.warn({ err }, 'live tick waits for the database');
          this.waitingForDatabase ||= isDatabaseUnavailable(err);
        })
        .finally(() => (busy = false));
    }, this.deps.config.live.sample_seconds * 1000);
  }

  /** The live streams this node runs (on a box that knows no nodes: all of them). */
  private mine(live: StreamRow[]): StreamRow[] {
    const self = this.deps.config.node.id;
    return self === null ? live : live.filter((r) => r.node_id === null || r.node_id === self);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.workers.stopAll();
  }

  /** nginx's statistics; null while nginx does not answer (restarting), logged once per outage. */
  private async readStats(): Promise<StatStream[] | null> {
    try {
      const stats = parseRtmpStat(await this.deps.ingest.stat());
      if (this.statFailing) this.deps.logger.info('ingest statistics available again');
      this.statFailing = false;
      return stats;
    } catch (err) {
      if (!this.statFailing)
        this.deps.logger.warn({ err: (err as Error).message }, 'ingest statistics unavailable (nginx restarting?)');
      this.statFailing = true;
      return null;
    }
  }
}
