import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { localUrlHost, type Config } from '../../../config/config.js';
import { dataPaths } from '../../../config/paths.js';
import type { Logger } from '../../../core/logger.js';
import { ladderArgs, planLadder, type Rendition } from '../../../platform/media/ladder.js';
import type { SegmentProbe } from '../../../platform/media/probe.js';
import { GrowingFile } from '../../../platform/process/growing-file.js';
import { cpuSeconds } from '../../../platform/process/proc.js';
import type { Supervised, Supervisor } from '../../../platform/process/supervisor.js';
import type { ObjectStore } from '../../../platform/storage/store.js';
import { segmentSeconds, type LatencyMode, type Profile } from '../../streams/model.js';
import { IngestMeter } from './ingest-meter.js';
import { Uploader } from './uploader.js';
import type { Thumbnailer } from '../thumbnails/capture.js';

/** What a worker learns about the source before starting its ladder (nginx-rtmp's metadata). */
export interface SourceInfo {
  width: number;
  height: number;
  hasAudio: boolean;
}

/**
 * How often the uploader looks for finished pieces: each look reads a two-line work playlist per
 * rendition (microseconds), and its wait is part of every viewer's delay (half the period on average).
 */
const UPLOAD_TICK_MS = 100;

export interface WorkerDeps {
  config: Config;
  supervisor: Supervisor;
  logger: Logger;
  probe: (file: string) => Promise<SegmentProbe>;
  thumbnails: Thumbnailer;
  /** Where the live media goes (`origin/<stream id>/`): this machine's media folder, or the origin over HTTP on an ingest node. */
  media: ObjectStore;
}

/**
 * One live stream on this node: a ladder ffmpeg per publish session (nginx ends it when the
 * publisher leaves), and one uploader for the whole broadcast, so that a reconnect continues
 * the same playlists (ffmpeg's append_list adds the discontinuity).
 */
export class LiveWorker {
  readonly meter: IngestMeter;
  /** What nginx had dropped for this stream's ladder at the last tick. */
  droppedSeen = 0;
  /** The ladder was last found further behind the recording than LADDER_LAG_WARN_SECONDS (warned once per episode). */
  lagging = false;
  /** When the last ingest sample of this stream was stored (INGEST_SAMPLE_SECONDS apart). */
  sampledAt: Date | null = null;
  /** The frame rate the publisher declares (nginx's metadata), as of the last tick. */
  frameRate: number | null = null;
  private ladder: Supervised | null = null;
  /** The current session's recording, fed to its ladder; null when the ladder pulls the live stream. */
  private feed: GrowingFile | null = null;
  private uploader: Uploader | null = null;
  private timer: NodeJS.Timeout | null = null;
  private renditions: Rendition[] | null = null;
  private publisherConnected = false;
  private finished = false;
  private sessionStart: Promise<void> = Promise.resolve();
  /** Publish sessions so far: a ladder restarts only while its own session lasts. */
  private sessions = 0;
  /** Whether the publisher's audio is in the ladder's input (nginx's metadata of the session). */
  private hasAudio = true;
  /** A bigger ladder is being started (see followSource). */
  private growing = false;
  /** Told the renditions each time they grow (the stream's `renditions`). */
  onRenditionsGrown: ((names: string[]) => void) | null = null;

  constructor(
    readonly streamId: string,
    private readonly profile: Profile,
    private readonly latencyMode: LatencyMode,
    /** Orders workers by creation (see WorkerControl). */
    readonly serial: number,
    private readonly deps: WorkerDeps,
  ) {
    this.meter = new IngestMeter(deps.config.live.bitrate_window_seconds);
  }

  get log(): Logger {
    return this.deps.logger;
  }

  get renditionNames(): string[] | null {
    return this.renditions?.map((r) => r.name) ?? null;
  }

  /** CPU seconds the current ladder process has used (it restarts with each publish session); null without one. */
  get ladderCpuSeconds(): number | null {
    const pid = this.ladder?.pid;
    return pid ? cpuSeconds(pid) : null;
  }

  /**
   * How far the ladder is behind nginx's recording of the session it reads: bytes recorded and
   * not yet read, and the media time they hold at the ingest bitrate (null until it is known).
   * Null when the ladder pulls the live stream (nginx drops for it instead, see droppedSeen).
   */
  get ladderLag(): { bytes: number; seconds: number | null } | null {
    const bytes = this.feed?.behindBytes() ?? null;
    if (bytes === null) return null;
    const kbps = this.meter.kbps();
    return { bytes, seconds: kbps ? (bytes * 8) / (kbps * 1000) : null };
  }

  get playable(): boolean {
    return this.uploader?.playable ?? false;
  }

  private get workDir(): string {
    return join(dataPaths(this.deps.config.dataDir).live, this.streamId);
  }

  /**
   * A publisher was admitted: start a ladder once `source` says what it sends (null: no metadata
   * came, serve the source only). Resolves when the ladder has started; the renditions are
   * planned by the first session (players keep the playlists they know) and only grow
   * (followSource). `recording` finds nginx's recording of this publish session (null: none, as
   * for a publisher adopted after a restart): the ladder reads it from its first frame.
   */
  publisherStarted(source: Promise<SourceInfo | null>, recording: () => string | null = () => null): Promise<void> {
    this.publisherConnected = true;
    // nginx takes one publisher per stream: the last session's is gone, even when nobody said so (nginx died).
    this.feed?.finish();
    const session = ++this.sessions;
    this.sessionStart = this.sessionStart
      .then(async () => this.startSession(await source, recording, session))
      .catch((err: unknown) => this.log.error({ err }, 'ladder did not start'));
    return this.sessionStart;
  }

  publisherLeft(): void {
    this.publisherConnected = false;
    // nginx closed the recording before it said so: what is in it is the whole session.
    this.feed?.finish();
  }

  /** The stream's latency mode decides (see `LATENCY`); pieces are cut on the publisher's keyframes. */
  private get segmentSeconds(): number {
    return segmentSeconds(this.latencyMode, this.deps.config.live);
  }

  private async startSession(
    info: SourceInfo | null,
    findRecording: () => string | null,
    session: number,
  ): Promise<void> {
    if (this.finished || !this.publisherConnected) return;
    const { config } = this.deps;
    if (!this.renditions) {
      const source = info ?? { width: 0, height: 0, hasAudio: true };
      this.renditions = planLadder(this.profile, source);
      mkdirSync(this.workDir, { recursive: true });
      this.uploader = new Uploader({
        streamId: this.streamId,
        workDir: this.workDir,
        store: this.deps.media,
        renditions: this.renditions.map((r) => r.name),
        windowSegments: config.live.window_segments,
        segmentSeconds: this.segmentSeconds,
        probe: this.deps.probe,
        onSourceSegment: (probe) => {
          this.meter.addSegment(probe);
          this.followSource(probe);
        },
        // Stills come from the smallest rendition: the cheapest to decode.
        onPublished: (rendition, file) => {
          if (rendition === this.renditions?.at(-1)?.name)
            this.deps.thumbnails.offer(this.streamId, this.profile, file);
        },
        logger: this.log,
      });
      this.timer = setInterval(() => void this.uploader?.tick(), UPLOAD_TICK_MS);
    }
    await this.ladder?.waitForExit();
    // Released, not just forgotten: a restart it had scheduled would run beside this session's ladder.
    if (this.ladder) await this.deps.supervisor.release(this.ladder);
    if (session !== this.sessions || !this.publisherConnected) return;
    this.hasAudio = info?.hasAudio ?? true;
    // nginx's recording of the session holds it from the first frame; pulling the live stream
    // joins at the publisher's next keyframe, up to a keyframe interval later (docs/decisions.md,
    // "First picture"). The feed ends when the publisher leaves (see publisherLeft), the ladder with it.
    const recording = findRecording();
    this.runLadder(session, recording);
    this.log.info(
      { renditions: this.renditionNames, source: info, input: recording ? 'recording' : 'live' },
      'ladder started',
    );
  }

  /** The session's ladder, from its recording (null: from the live stream) into the work folder's playlists. */
  private runLadder(session: number, recording: string | null): void {
    const { config } = this.deps;
    const renditions = this.renditions as Rendition[];
    const options = {
      outDir: this.workDir,
      renditions,
      hasAudio: this.hasAudio,
      preset: config.live.x264_preset,
      segmentSeconds: this.segmentSeconds,
    };
    const live = `rtmp://${localUrlHost(config)}:${config.ports.rtmp}/live/${this.streamId}`;
    this.feed = recording ? new GrowingFile(recording) : null;
    const args = ladderArgs({
      ...options,
      ...(this.feed ? { input: 'pipe:0', inputFormat: 'flv' as const } : { input: live }),
      // Shorter first segments get the first picture out sooner; only a fresh folder can have them.
      firstSegmentSeconds: existsSync(join(this.workDir, `${renditions[0]?.name}.m3u8`))
        ? 0
        : config.live.first_segment_seconds,
    });
    this.ladder = this.deps.supervisor.spawn({
      name: `ladder ${this.streamId}`,
      file: config.live.ffmpeg_path,
      args,
      ...(this.feed ? { stdin: this.feed } : {}),
      // A restart joins the live stream (reading the recording again would repeat the session) and continues the playlists.
      restartArgs: ladderArgs({ ...options, input: live, firstSegmentSeconds: 0 }),
      logger: this.log,
      // A ladder without its appliance would only fill the work folder: it dies with it.
      dieWithParent: true,
      // Its input ends with the publisher (exit 0); a crash while this session publishes restarts it.
      restart: (exit) => session === this.sessions && this.publisherConnected && !this.finished && exit.code !== 0,
    });
  }

  /**
   * The ladder follows the size the publisher really sends, when it grows into a bigger class:
   * a WebRTC sender starts small while its bandwidth estimate ramps up (Chromium: 640x360 →
   * 960x540 → 1280x720 in ~8 s), and a ladder planned from its first frames would stay
   * source-only. The ladder is restarted with the bigger plan, pulling the live stream: the
   * copied rendition's playlist continues with a discontinuity (append_list), the new renditions
   * start, and the master playlist lists them from their first segment on. Renditions never go
   * away (a player may be on one), so a sender that shrinks under congestion changes nothing.
   */
  private followSource(probe: SegmentProbe): void {
    if (!probe.video || !this.renditions || this.growing || this.finished || !this.publisherConnected) return;
    // Plans nest (source ⊂ source + 480p ⊂ source + 720p + 480p): a longer one holds the current.
    const plan = planLadder(this.profile, probe.video);
    if (plan.length <= this.renditions.length) return;
    this.growing = true;
    const session = this.sessions;
    this.sessionStart = this.sessionStart
      .then(async () => {
        if (session !== this.sessions || !this.publisherConnected || this.finished) return;
        const from = this.renditionNames;
        this.renditions = plan;
        this.uploader?.addRenditions(plan.map((r) => r.name));
        this.feed?.finish();
        if (this.ladder) await this.deps.supervisor.release(this.ladder);
        if (session !== this.sessions || !this.publisherConnected || this.finished) return;
        this.runLadder(session, null);
        this.log.info({ from, renditions: this.renditionNames, source: probe.video }, 'ladder grew with the source');
        this.onRenditionsGrown?.(this.renditionNames as string[]);
      })
      .catch((err: unknown) => this.log.error({ err }, 'ladder did not grow'))
      .finally(() => {
        this.growing = false;
      });
  }

  /**
   * The appliance stops, the broadcast does not: the ladder goes at once and the playlists stay
   * open (no ENDLIST), so players wait for the publisher's reconnect instead of ending.
   */
  async stop(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    await this.sessionStart;
    if (this.ladder) await this.deps.supervisor.release(this.ladder);
    if (this.timer) clearInterval(this.timer);
    await this.uploader?.tick();
  }

  /** The broadcast is over: stop the ladder, publish what is left and end every playlist. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    this.publisherLeft();
    await this.sessionStart;
    if (this.ladder) {
      // The ladder normally exits with its publisher; do not wait for a stuck one.
      const exited = this.ladder.waitForExit();
      const timeout = new Promise((r) => setTimeout(r, 3000));
      await Promise.race([exited, timeout]);
      await this.deps.supervisor.release(this.ladder);
    }
    if (this.timer) clearInterval(this.timer);
    await this.uploader?.finish();
    rmSync(this.workDir, { recursive: true, force: true });
    this.log.info('live worker finished');
  }
}
