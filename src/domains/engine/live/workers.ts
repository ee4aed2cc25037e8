import type { Config } from '../../../config/config.js';
import { dataPaths } from '../../../config/paths.js';
import type { Logger } from '../../../core/logger.js';
import type { SegmentProbe } from '../../../platform/media/probe.js';
import { rmSync } from 'node:fs';
import { recordedSessions, setAsideSessions } from '../../../platform/nginx/record.js';
import { parseRtmpStat, type StatStream } from '../../../platform/nginx/rtmp-stat.js';
import { findProcesses, killAll } from '../../../platform/process/proc.js';
import type { Supervisor } from '../../../platform/process/supervisor.js';
import type { ObjectStore } from '../../../platform/storage/store.js';
import type { StreamRow } from '../../streams/model.js';
import type { Thumbnailer } from '../thumbnails/capture.js';
import { judgeSource, type SourceVerdict } from './source-rules.js';
import { LiveWorker } from './worker.js';

/** What the live pipeline needs from nginx. */
export interface IngestControl {
  readonly ready: boolean;
  stat(): Promise<string>;
  dropPublisher(streamId: string): Promise<boolean>;
}

/** The restreaming pushes (engine/outputs, docs/decisions.md "Restreaming: pushing"), told of publishers and ends. */
export interface OutputControl {
  publisherStarted(streamId: string, recording: () => string | null): void;
  publisherLeft(streamId: string): void;
  ended(streamId: string): Promise<void>;
  /** Every live tick, with the live streams of this node. */
  tick(liveHere: string[]): Promise<void>;
  stopAll(): Promise<void>;
}

export interface WorkerControlDeps {
  config: Config;
  logger: Logger;
  supervisor: Supervisor;
  ingest: IngestControl;
  probe: (file: string) => Promise<SegmentProbe>;
  thumbnails: Thumbnailer;
  /** Where the live media goes (see WorkerDeps). */
  media: ObjectStore;
  /** The restreaming pushes of this node (none: no outputs pushed). */
  outputs?: OutputControl;
}

/** nginx-rtmp's metadata arrives right after the publish is accepted: it is asked for this often, this many times. */
const SOURCE_INFO_POLL_MS = 100;
const SOURCE_INFO_POLLS = 50;

/** The workers of this node's live streams: started with their publisher, finished with their stream. */
export class WorkerControl {
  private readonly workers = new Map<string, LiveWorker>();
  /** Workers made so far: `serial` orders a worker against a query that began before or after it. */
  private made = 0;

  constructor(private readonly deps: WorkerControlDeps) {}

  get(streamId: string): LiveWorker | undefined {
    return this.workers.get(streamId);
  }

  has(streamId: string): boolean {
    return this.workers.has(streamId);
  }

  ids(): string[] {
    return [...this.workers.keys()];
  }

  all(): LiveWorker[] {
    return [...this.workers.values()];
  }

  /** Workers made before the serial given (0: none yet); those made later have a higher one. */
  madeBefore(serial: number): LiveWorker[] {
    return this.all().filter((w) => w.serial <= serial);
  }

  get lastSerial(): number {
    return this.made;
  }

  /**
   * A publisher was admitted: its stream's worker starts a ladder once the source's metadata is
   * known, reading nginx's recording of the session from its start. Resolves when it has. A source that is not H.264 video is refused: see refuseSource.
   */
  publisherStarted(stream: StreamRow): { worker: LiveWorker; started: Promise<void> } {
    let worker = this.workers.get(stream.id);
    if (!worker) {
      worker = new LiveWorker(stream.id, stream.profile, stream.latency_mode, ++this.made, {
        config: this.deps.config,
        supervisor: this.deps.supervisor,
        logger: this.deps.logger.child({ stream_id: stream.id }),
        probe: this.deps.probe,
        thumbnails: this.deps.thumbnails,
        media: this.deps.media,
      });
      this.workers.set(stream.id, worker);
    }
    const admitted = worker;
    // nginx opens the session's recording once the hook admitted it: the new file is this session's.
    const ingest = dataPaths(this.deps.config.dataDir).ingest;
    // Renamed first, so that a reconnect within the same second gets a file of its own instead of truncating the last.
    setAsideSessions(ingest, stream.id);
    const earlier = new Set(recordedSessions(ingest, stream.id));
    const recording = () =>
      recordedSessions(ingest, stream.id)
        .filter((f) => !earlier.has(f))
        .at(-1) ?? null;
    const source = this.sourceInfo(stream.id).then(async (verdict) => {
      if (verdict?.kind !== 'refused') {
        // The outputs start once the source is known to be served, from the session's recording (its first frame).
        this.deps.outputs?.publisherStarted(stream.id, recording);
        return verdict && { width: verdict.width, height: verdict.height, hasAudio: verdict.hasAudio };
      }
      admitted.publisherLeft();
      await this.refuseSource(stream.id, verdict);
      return null;
    });

    return { worker, started: worker.publisherStarted(source, recording) };
  }

  publisherLeft(streamId: string): void {
    this.workers.get(streamId)?.publisherLeft();
    this.deps.outputs?.publisherLeft(streamId);
  }

  /**
   * A stream ended (DELETE, a job, a limit): its publisher is dropped and its worker finishes.
   * Never rejects; true when a worker of this node finished.
   */
  async ended(streamId: string): Promise<boolean> {
    try {
      await this.deps.ingest.dropPublisher(streamId);
    } catch (err) {
      this.deps.logger.warn({ stream_id: streamId, err }, 'could not drop the publisher');
    }
    await this.deps.outputs?.ended(streamId);
    const worker = this.workers.get(streamId);
    if (!worker) return false;
    this.workers.delete(streamId);
    this.deps.thumbnails.forget(streamId);
    try {
      await worker.finish();
    } catch (err) {
      this.deps.logger.error({ stream_id: streamId, err }, 'live worker did not finish cleanly');
    }
    return true;
  }

  /**
   * Ladders an earlier appliance of this data dir left running (it was killed where setpriv is
   * missing, or died before setpriv armed the signal): they write into this node's work folders.
   */
  killLeftovers(): void {
    const workRoot = `${dataPaths(this.deps.config.dataDir).live}/`;
    const pids = findProcesses((argv) =>
      argv.some((arg, i) => argv[i - 1] === '-hls_segment_filename' && arg.startsWith(workRoot)),
    );
    if (!pids.length) return;
    killAll(pids);
    this.deps.logger.warn({ pids }, 'stopped ladders left running by an earlier start');
  }

  /** The appliance stops, the broadcasts go on: ladders stop, playlists stay open for the restart. */
  async stopAll(): Promise<void> {
    await this.deps.outputs?.stopAll();
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }

  /**
   * A publisher whose source the appliance cannot serve (not H.264 video) is dropped at once,
   * before any ladder starts, and what nginx recorded of its session is removed (it holds
   * nothing playable). The stream stays live for its reconnect window, so the publisher can
   * come back with H.264 (same key); if none does, it ends `disconnected`.
   */
  private async refuseSource(streamId: string, verdict: Extract<SourceVerdict, { kind: 'refused' }>): Promise<void> {
    this.deps.logger.warn(
      { stream_id: streamId, video_codec: verdict.video },
      `publisher dropped: ${verdict.reason} (reconnect with H.264 video within the reconnect window)`,
    );
    try {
      await this.deps.ingest.dropPublisher(streamId);
    } catch (err) {
      this.deps.logger.warn({ stream_id: streamId, err }, 'could not drop the publisher');
    }
    // The newest session is the refused one.
    const newest = recordedSessions(dataPaths(this.deps.config.dataDir).ingest, streamId).at(-1);
    if (newest) rmSync(newest, { force: true });
  }

  /**
   * Waits briefly for the publisher's metadata and judges it; null (serve the source only) when
   * none arrives.
   */
  private async sourceInfo(streamId: string): Promise<Exclude<SourceVerdict, { kind: 'unknown' }> | null> {
    let meta: StatStream['meta'] = null;
    for (let poll = 0; poll < SOURCE_INFO_POLLS; poll++) {
      try {
        meta = parseRtmpStat(await this.deps.ingest.stat()).find((s) => s.name === streamId)?.meta ?? meta;
        const verdict = judgeSource(meta, false);
        if (verdict.kind !== 'unknown') return verdict;
      } catch {
        // nginx restarting: ask again.
      }
      await new Promise((r) => setTimeout(r, SOURCE_INFO_POLL_MS));
    }
    const verdict = judgeSource(meta, true);
    if (verdict.kind !== 'unknown') return verdict;
    this.deps.logger.warn({ stream_id: streamId }, 'no metadata from the publisher: serving the source only');
    return null;
  }
}
