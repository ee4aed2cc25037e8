import type { Config } from '../../config/config.js';
import { dataPaths } from '../../config/paths.js';
import type { Logger } from '../../core/logger.js';
import type { SegmentProbe } from '../../platform/media/probe.js';
import { parseRtmpStat } from '../../platform/nginx/rtmp-stat.js';
import { findProcesses, killAll } from '../../platform/process/proc.js';
import type { Supervisor } from '../../platform/process/supervisor.js';
import type { StreamRow } from '../streams/queries.js';
import type { Thumbnailer } from '../thumbnails/capture.js';
import { LiveWorker, type SourceInfo } from './worker.js';

/** What the live pipeline needs from nginx. */
export interface IngestControl {
  readonly ready: boolean;
  stat(): Promise<string>;
  dropPublisher(streamId: string): Promise<boolean>;
}

export interface WorkerControlDeps {
  config: Config;
  logger: Logger;
  supervisor: Supervisor;
  ingest: IngestControl;
  probe: (file: string) => Promise<SegmentProbe>;
  thumbnails: Thumbnailer;
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

  /** Workers made before the serial given (0: none yet); those made later have a higher one. */
  madeBefore(serial: number): LiveWorker[] {
    return [...this.workers.values()].filter((w) => w.serial <= serial);
  }

  get lastSerial(): number {
    return this.made;
  }

  /** A publisher was admitted: its stream's worker starts a ladder once the source's metadata is known. Resolves when it has. */
  publisherStarted(stream: StreamRow): { worker: LiveWorker; started: Promise<void> } {
    let worker = this.workers.get(stream.id);
    if (!worker) {
      worker = new LiveWorker(stream.id, stream.profile, ++this.made, {
        config: this.deps.config,
        supervisor: this.deps.supervisor,
        logger: this.deps.logger.child({ stream_id: stream.id }),
        probe: this.deps.probe,
        thumbnails: this.deps.thumbnails,
      });
      this.workers.set(stream.id, worker);
    }
    return { worker, started: worker.publisherStarted(this.sourceInfo(stream.id)) };
  }

  publisherLeft(streamId: string): void {
    this.workers.get(streamId)?.publisherLeft();
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
    const pids = findProcesses((argv) => argv.some((arg, i) => argv[i - 1] === '-hls_segment_filename' && arg.startsWith(workRoot)));
    if (!pids.length) return;
    killAll(pids);
    this.deps.logger.warn({ pids }, 'stopped ladders left running by an earlier start');
  }

  /** The appliance stops, the broadcasts go on: ladders stop, playlists stay open for the restart. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }

  /** Waits briefly for the publisher's metadata; null (serve the source only) when none arrives. */
  private async sourceInfo(streamId: string): Promise<SourceInfo | null> {
    for (let poll = 0; poll < SOURCE_INFO_POLLS; poll++) {
      try {
        const stream = parseRtmpStat(await this.deps.ingest.stat()).find((s) => s.name === streamId);
        const meta = stream?.meta;
        if (meta?.width && meta.height) return { width: meta.width, height: meta.height, hasAudio: meta.audioCodec !== null };
      } catch {
        // nginx restarting: ask again.
      }
      await new Promise((r) => setTimeout(r, SOURCE_INFO_POLL_MS));
    }
    this.deps.logger.warn({ stream_id: streamId }, 'no metadata from the publisher: serving the source only');
    return null;
  }
}
