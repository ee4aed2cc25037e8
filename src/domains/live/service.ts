import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config/config.js';
import { dataPaths } from '../../config/paths.js';
import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { addSeconds } from '../../core/time.js';
import type { Sql, Tx } from '../../platform/db/connect.js';
import type { PublisherGate } from './hooks.routes.js';
import { parseRtmpStat, type StatStream } from '../../platform/nginx/rtmp-stat.js';
import type { SegmentProbe } from '../../platform/media/probe.js';
import type { Supervisor } from '../../platform/process/supervisor.js';
import { lockStreamById, updateStream, type StreamRow } from '../streams/queries.js';
import type { EndReason } from '../streams/schemas.js';
import * as transitions from '../streams/transitions.js';
import { admit } from './admission.js';
import * as q from './queries.js';
import { LiveWorker, type SourceInfo } from './worker.js';
import { Thumbnailer } from '../thumbnails/capture.js';

/** What the live pipeline needs from nginx. */
export interface IngestControl {
  readonly ready: boolean;
  stat(): Promise<string>;
  dropPublisher(streamId: string): Promise<boolean>;
}

export interface LiveDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  supervisor: Supervisor;
  ingest: IngestControl;
  probe: (file: string) => Promise<SegmentProbe>;
}

/** How long after its end a stream's folder leaves the origin (players finishing the last pieces). */
const ORIGIN_LINGER_SECONDS = 60;

/**
 * The live side of streams on this node: admits publishers (nginx's hooks), runs a worker per
 * live stream, measures ingest, and ends streams whose publisher is gone, whose time is up or
 * whose publisher breaks a limit.
 */
export class LiveService implements PublisherGate {
  private readonly workers = new Map<string, LiveWorker>();
  /** Streams whose recorded publisher nginx did not list at the last tick. */
  private missing = new Set<string>();
  private ticks = 0;
  private timer: NodeJS.Timeout | null = null;
  private statFailing = false;

  private readonly thumbnails: Thumbnailer;

  constructor(private readonly deps: LiveDeps) {
    this.thumbnails = new Thumbnailer({
      ffmpegPath: deps.config.live.ffmpeg_path,
      dir: dataPaths(deps.config.dataDir).thumbs,
      everySeconds: deps.config.live.thumbnail_seconds,
      logger: deps.logger,
      onCaptured: async (streamId, at) => {
        await deps.sql`update streams set thumbnail_at = ${at} where id = ${streamId}`;
      },
    });
  }

  get nodeReady(): boolean {
    return this.deps.ingest.ready;
  }

  async admit(req: { name: string; key: string | undefined; clientId: string; addr: string }): Promise<boolean> {
    const { sql, config, clock, logger } = this.deps;
    const result = await sql.begin((tx) =>
      admit(tx, req, { config, now: clock.now(), publisherPresent: (id) => this.publisherPresent(id) }),
    );
    if (!result.admitted) {
      logger.warn({ stream_id: result.streamId, client_id: req.clientId, addr: req.addr, reason: result.reason }, `publisher refused: ${result.message}`);
      return false;
    }
    const stream = result.stream;
    logger.info({ stream_id: stream.id, client_id: req.clientId, resumed: result.resumed }, result.resumed ? 'publisher reconnected' : 'stream live');
    this.missing.delete(stream.id);
    const worker = this.workerFor(stream);
    void worker
      .publisherStarted()
      .then(() => this.saveRenditions(stream.id, worker))
      .catch((err: unknown) => this.deps.logger.error({ stream_id: stream.id, err }, 'renditions not saved'));
    return true;
  }

  async left(req: { name: string; clientId: string }): Promise<void> {
    const { sql, clock, logger } = this.deps;
    // A refused duplicate also triggers publish_done: only the admitted client counts.
    const left = await sql.begin(async (tx) => {
      const row = await lockStreamById(tx, req.name);
      if (!row || row.status !== 'live' || row.publisher_client_id !== req.clientId) return false;
      await updateStream(tx, row.id, { publisher_client_id: null, publisher_left_at: clock.now() });
      return true;
    });
    if (!left) return;
    logger.info({ stream_id: req.name, client_id: req.clientId }, 'publisher left');
    this.workers.get(req.name)?.publisherLeft();
  }

  /** A stream ended (DELETE, a job, a limit): its publisher is dropped and its worker finishes. Never rejects. */
  async ended(streamId: string): Promise<void> {
    try {
      await this.deps.ingest.dropPublisher(streamId);
    } catch (err) {
      this.deps.logger.warn({ stream_id: streamId, err }, 'could not drop the publisher');
    }
    const worker = this.workers.get(streamId);
    if (!worker) return;
    this.workers.delete(streamId);
    this.thumbnails.forget(streamId);
    try {
      await worker.finish();
    } catch (err) {
      this.deps.logger.error({ stream_id: streamId, err }, 'live worker did not finish cleanly');
    }
    setTimeout(() => this.removeFromOrigin(streamId), ORIGIN_LINGER_SECONDS * 1000).unref();
  }

  /** Every few seconds: reconnect windows, maximum durations, ingest measurements and limits. */
  async tick(): Promise<void> {
    const now = this.deps.clock.now();
    const window = this.deps.config.live.reconnect_window_seconds;
    await this.endEach((tx) => q.lockDisconnected(tx, addSeconds(now, -window)), 'disconnected', (row) => addSeconds(row.publisher_left_at as Date, window));
    await this.endEach((tx) => q.lockOverDuration(tx, now), 'duration_limit', () => now);
    let stats: StatStream[] | null = null;
    try {
      stats = parseRtmpStat(await this.deps.ingest.stat());
      if (this.statFailing) this.deps.logger.info('ingest statistics available again');
      this.statFailing = false;
    } catch (err) {
      if (!this.statFailing) this.deps.logger.warn({ err: (err as Error).message }, 'ingest statistics unavailable (nginx restarting?)');
      this.statFailing = true;
    }
    const asked = Date.now();
    const live = await q.liveStreams(this.deps.sql);
    // A stream ended elsewhere (another node, a future job) still has its worker here: finish it.
    // Workers started after the query began are too new to judge by it.
    const liveIds = new Set(live.map((r) => r.id));
    for (const [id, worker] of this.workers) if (!liveIds.has(id) && worker.startedAt < asked) await this.ended(id);
    if (stats) await this.reconcilePublishers(live, stats);
    await this.measure(live, stats, now);
    if (++this.ticks % 10 === 1) this.sweepOrigin(live);
  }

  /** Ticks every `sample_seconds` on this node (workers live in this process). */
  start(): void {
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.tick()
        .catch((err: unknown) => this.deps.logger.error({ err }, 'live tick failed'))
        .finally(() => (busy = false));
    }, this.deps.config.live.sample_seconds * 1000);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }

  private workerFor(stream: StreamRow): LiveWorker {
    let worker = this.workers.get(stream.id);
    if (!worker) {
      worker = new LiveWorker(stream.id, stream.profile, {
        config: this.deps.config,
        supervisor: this.deps.supervisor,
        logger: this.deps.logger.child({ stream_id: stream.id }),
        probe: this.deps.probe,
        sourceInfo: (id) => this.sourceInfo(id),
        thumbnails: this.thumbnails,
      });
      this.workers.set(stream.id, worker);
    }
    return worker;
  }

  private async saveRenditions(streamId: string, worker: LiveWorker): Promise<void> {
    const renditions = worker.renditionNames;
    if (!renditions) return;
    await this.deps.sql`update streams set renditions = ${renditions} where id = ${streamId} and renditions is null`;
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

  /** nginx-rtmp's metadata arrives right after the publish is accepted: wait for it briefly. */
  private async sourceInfo(streamId: string): Promise<SourceInfo | null> {
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      try {
        const stream = parseRtmpStat(await this.deps.ingest.stat()).find((s) => s.name === streamId);
        const meta = stream?.meta;
        if (meta?.width && meta.height) return { width: meta.width, height: meta.height, hasAudio: meta.audioCodec !== null };
      } catch {
        // nginx restarting: try again until the deadline.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    this.deps.logger.warn({ stream_id: streamId }, 'no metadata from the publisher: serving the source only');
    return null;
  }

  private async endEach(select: (tx: Tx) => Promise<StreamRow[]>, reason: EndReason, at: (row: StreamRow) => Date): Promise<void> {
    const ended = await this.deps.sql.begin(async (tx) => {
      const rows = await select(tx);
      for (const row of rows) await transitions.end(tx, row, reason, at(row));
      return rows.map((r) => r.id);
    });
    for (const id of ended) {
      this.deps.logger.info({ stream_id: id, end_reason: reason }, 'stream ended');
      await this.ended(id);
    }
  }

  /**
   * A publisher the database remembers but nginx no longer lists (nginx restarted, the appliance
   * was down) has left: after two ticks in a row, its reconnect window starts.
   */
  private async reconcilePublishers(live: StreamRow[], stats: StatStream[]): Promise<void> {
    const publishing = new Set(stats.filter((s) => s.publisher).map((s) => s.name));
    const missing = new Set<string>();
    for (const row of live) {
      if (row.publisher_client_id === null || publishing.has(row.id)) continue;
      if (!this.missing.has(row.id)) {
        missing.add(row.id);
        continue;
      }
      await this.left({ name: row.id, clientId: row.publisher_client_id });
      this.deps.logger.warn({ stream_id: row.id }, 'publisher no longer connected to nginx; reconnect window started');
    }
    this.missing = missing;
  }

  private async measure(live: StreamRow[], stats: StatStream[] | null, now: Date): Promise<void> {
    const { config } = this.deps;
    const grace = config.live.limit_grace_seconds;
    for (const row of live) {
      const worker = this.workers.get(row.id);
      if (!worker) continue;
      const stat = stats?.find((s) => s.name === row.id && s.publisher);
      if (stat) {
        worker.meter.addBytes(now, stat.bytesIn);
        if (stat.playersDropped > worker.droppedSeen) {
          // The ladder fell behind and nginx dropped media for it: viewers see a gap. Capacity settings are too high.
          this.deps.logger.warn({ stream_id: row.id, dropped: stat.playersDropped }, 'the ladder is not keeping up: nginx dropped media for it; lower capacity.stream_cost budget or use a faster live.x264_preset');
        }
        worker.droppedSeen = stat.playersDropped;
      }
      const measurement = worker.meter.measure(now, { maxResolution: row.max_resolution, maxKbps: config.live.max_ingest_kbps });
      if (!measurement) continue;
      const warning = measurement.limit_warning;
      const since = warning ? (row.ingest?.limit_warning === warning && row.limit_warning_since ? row.limit_warning_since : now) : null;
      if (warning && since && addSeconds(since, grace) <= now) {
        await this.endForLimit(row.id, warning, measurement, now);
        continue;
      }
      await this.deps.sql`
        update streams set ingest = ${this.deps.sql.json(measurement as never)}, limit_warning_since = ${since}
        where id = ${row.id} and status = 'live'`;
    }
  }

  private async endForLimit(streamId: string, reason: 'limit_bitrate' | 'limit_resolution', measurement: StreamRow['ingest'], now: Date): Promise<void> {
    const ended = await this.deps.sql.begin(async (tx) => {
      const row = await lockStreamById(tx, streamId);
      if (!row || row.status !== 'live') return false;
      await updateStream(tx, streamId, { ingest: measurement });
      await transitions.end(tx, { ...row, ingest: measurement }, reason, now);
      return true;
    });
    if (!ended) return;
    this.deps.logger.warn({ stream_id: streamId, end_reason: reason, ingest: measurement }, 'stream ended: publisher limit broken');
    await this.ended(streamId);
  }

  /** Folders of finished streams leave the origin: there is no replay. */
  private sweepOrigin(live: StreamRow[]): void {
    const root = dataPaths(this.deps.config.dataDir).origin;
    if (!existsSync(root)) return;
    const keep = new Set([...live.map((r) => r.id), ...this.workers.keys()]);
    const cutoff = Date.now() - ORIGIN_LINGER_SECONDS * 1000;
    for (const name of readdirSync(root)) {
      if (!keep.has(name) && statSync(join(root, name)).mtimeMs < cutoff) this.removeFromOrigin(name);
    }
  }

  private removeFromOrigin(streamId: string): void {
    if (this.workers.has(streamId)) return;
    rmSync(join(dataPaths(this.deps.config.dataDir).origin, streamId), { recursive: true, force: true });
  }
}
