import type { Config } from '../../../config/config.js';
import type { Logger } from '../../../core/logger.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql, Tx } from '../../../platform/db/connect.js';
import type { StatStream } from '../../../platform/nginx/rtmp-stat.js';
import { lockStreamById, updateStream, type EndReason, type StreamRow } from '../../streams/model.js';
import * as transitions from '../../streams/transitions.js';
import { sampleDue } from './history.js';
import * as q from './queries.js';
import type { LiveWorker } from './worker.js';

/**
 * How far (media seconds at the ingest bitrate) a ladder may be behind the recording it reads
 * before the operator is warned: its start-up backlog (admission, metadata, ffmpeg's start) is a
 * few seconds and read at once; more than a 4-second piece and a half on top is a ladder that
 * does not keep up.
 */
export const LADDER_LAG_WARN_SECONDS = 6;

export interface EndingDeps {
  sql: Sql;
  config: Config;
  logger: Logger;
  /** A stream ended here: its publisher goes, its worker finishes. */
  ended: (streamId: string) => Promise<void>;
}

/**
 * The rules that end a live stream without anyone asking: the reconnect window ran out, the
 * maximum duration was reached, or the publisher kept breaking a limit (bitrate, resolution)
 * longer than the grace. Each end is a transition in its own transaction under the row lock.
 */
export class EndingRules {
  constructor(private readonly deps: EndingDeps) {}

  /** Reconnect windows and maximum durations, as of `now`. */
  async endExpired(now: Date): Promise<void> {
    const window = this.deps.config.live.reconnect_window_seconds;
    await this.endEach(
      (tx) => q.lockDisconnected(tx, addSeconds(now, -window)),
      'disconnected',
      (row) => addSeconds(row.publisher_left_at as Date, window),
    );
    await this.endEach(
      (tx) => q.lockOverDuration(tx, now),
      'duration_limit',
      () => now,
    );
  }

  /**
   * Feeds nginx's byte counters to each worker's meter, stores the measurement on the stream (and
   * in its ingest series every INGEST_SAMPLE_SECONDS) and ends the stream once a limit warning has
   * held for the grace period.
   */
  async measure(
    live: StreamRow[],
    stats: StatStream[] | null,
    workerOf: (streamId: string) => LiveWorker | undefined,
    now: Date,
  ): Promise<void> {
    const { config, sql, logger } = this.deps;
    const grace = config.live.limit_grace_seconds;
    for (const row of live) {
      const worker = workerOf(row.id);
      if (!worker) continue;
      const stat = stats?.find((s) => s.name === row.id && s.publisher);
      if (stat) {
        worker.meter.addBytes(now, stat.bytesIn);
        if (stat.playersDropped > worker.droppedSeen) {
          // The ladder fell behind and nginx dropped media for it: viewers see a gap. Capacity settings are too high.
          logger.warn(
            { stream_id: row.id, dropped: stat.playersDropped },
            'the ladder is not keeping up: nginx dropped media for it; lower capacity.stream_cost budget or use a faster live.x264_preset',
          );
        }
        worker.droppedSeen = stat.playersDropped;
        this.checkLag(row.id, worker);
        worker.frameRate = stat.meta?.frameRate ?? null;
      }
      const measurement = worker.meter.measure(now, {
        maxResolution: row.max_resolution,
        maxKbps: config.live.max_ingest_kbps,
      });
      if (!measurement) continue;
      const warning = measurement.limit_warning;
      const since = warning
        ? row.ingest?.limit_warning === warning && row.limit_warning_since
          ? row.limit_warning_since
          : now
        : null;
      if (warning && since && addSeconds(since, grace) <= now) {
        await this.endForLimit(row.id, warning, measurement, now);
        continue;
      }
      const sampleAt = sampleDue(worker.sampledAt, now) ? now : null;
      await q.saveIngest(sql, row.id, measurement, since, sampleAt);
      if (sampleAt) worker.sampledAt = sampleAt;
    }
  }

  /**
   * A ladder that reads the session's recording never makes nginx drop anything: when it cannot
   * keep up it falls behind the recording instead, and every viewer's delay grows with it. Warned
   * once when it passes LADDER_LAG_WARN_SECONDS, told again when it is back under half of that.
   */
  private checkLag(streamId: string, worker: LiveWorker): void {
    const lag = worker.ladderLag;
    if (lag?.seconds == null) return;
    const seconds = Math.round(lag.seconds * 10) / 10;
    if (!worker.lagging && lag.seconds > LADDER_LAG_WARN_SECONDS) {
      worker.lagging = true;
      this.deps.logger.warn(
        { stream_id: streamId, behind_seconds: seconds, behind_bytes: lag.bytes },
        'the ladder is not keeping up: it is behind the recording it reads and viewers fall behind with it; lower capacity.stream_cost budget or use a faster live.x264_preset',
      );
    } else if (worker.lagging && lag.seconds < LADDER_LAG_WARN_SECONDS / 2) {
      worker.lagging = false;
      this.deps.logger.info(
        { stream_id: streamId, behind_seconds: seconds, behind_bytes: lag.bytes },
        'the ladder caught up with the recording',
      );
    }
  }

  /** Ends a live stream now for a reason found outside the rules here (a simulcast offer); false when it was not live. */
  async endNow(streamId: string, reason: EndReason, now: Date): Promise<boolean> {
    const ended = await this.deps.sql.begin(async (tx) => {
      const row = await lockStreamById(tx, streamId);
      if (!row || row.status !== 'live') return false;
      await transitions.end(tx, row, reason, now);
      return true;
    });
    if (!ended) return false;
    this.deps.logger.warn({ stream_id: streamId, end_reason: reason }, 'stream ended');
    await this.deps.ended(streamId);
    return true;
  }

  private async endEach(
    select: (tx: Tx) => Promise<StreamRow[]>,
    reason: EndReason,
    at: (row: StreamRow) => Date,
  ): Promise<void> {
    const ended = await this.deps.sql.begin(async (tx) => {
      const rows = await select(tx);
      for (const row of rows) await transitions.end(tx, row, reason, at(row));
      return rows.map((r) => r.id);
    });
    for (const id of ended) {
      this.deps.logger.info({ stream_id: id, end_reason: reason }, 'stream ended');
      await this.deps.ended(id);
    }
  }

  private async endForLimit(
    streamId: string,
    reason: 'limit_bitrate' | 'limit_resolution',
    measurement: StreamRow['ingest'],
    now: Date,
  ): Promise<void> {
    const ended = await this.deps.sql.begin(async (tx) => {
      const row = await lockStreamById(tx, streamId);
      if (!row || row.status !== 'live') return false;
      await updateStream(tx, streamId, { ingest: measurement });
      await transitions.end(tx, { ...row, ingest: measurement }, reason, now);
      return true;
    });
    if (!ended) return;
    this.deps.logger.warn(
      { stream_id: streamId, end_reason: reason, ingest: measurement },
      'stream ended: publisher limit broken',
    );
    await this.deps.ended(streamId);
  }
}
