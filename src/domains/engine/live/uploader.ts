import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../../../core/logger.js';
import {
  parseMediaPlaylist,
  renderMasterPlaylist,
  renderWindowPlaylist,
  slideWindow,
  targetDurationFor,
  type MediaSegment,
  type SequenceStart,
  type Variant,
} from '../../../platform/media/playlist.js';
import { codecsString, type SegmentProbe } from '../../../platform/media/probe.js';

export interface UploaderOptions {
  streamId: string;
  /** Where the ladder writes (`<rendition>.m3u8`, `<rendition>_00001.ts`). */
  workDir: string;
  /** The stream's folder on the CDN origin. */
  originDir: string;
  renditions: string[];
  windowSegments: number;
  segmentSeconds: number;
  probe: (file: string) => Promise<SegmentProbe>;
  /** Every segment of the top quality, read: the ingest measurements come from it. */
  onSourceSegment: (probe: SegmentProbe, segment: MediaSegment) => void;
  /** A segment is on the origin (`file`, its path there). */
  onPublished?: (rendition: string, file: string) => void;
  logger: Logger;
}

interface RenditionState {
  /** Every segment published so far (after a restart: from the window players last saw), oldest first. */
  published: MediaSegment[];
  /** Where `published` starts in the whole broadcast. */
  from: SequenceStart;
  /**
   * The least TARGETDURATION every segment published so far allows (RFC 8216 4.3.3.1), and at
   * least what players saw before a restart: it never goes down. 0 before any.
   */
  targetDuration: number;
  /** The next segment published gets a discontinuity tag: an earlier appliance made the ones before. */
  resumed: boolean;
  names: Set<string>;
  /** Segment files on the origin, oldest first: the oldest go once there are more than two windows. */
  onOrigin: string[];
  variant: Omit<Variant, 'bandwidth' | 'uri' | 'name'> | null;
  peakBps: number;
  sumBytes: number;
  sumSeconds: number;
}

/**
 * Publishes the ladder's finished segments to the origin: each segment is moved there before the
 * playlist naming it is replaced (both atomically), and the origin's playlists list a sliding
 * window. The master playlist is written once every rendition has a segment, with CODECS read
 * from the segments themselves (ffmpeg leaves them out for copied streams).
 *
 * The origin's playlists are also the uploader's memory: one made after a restart reads them and
 * continues their MEDIA-SEQUENCE, DISCONTINUITY-SEQUENCE and TARGETDURATION, its first segment
 * marked as a discontinuity, so that players never see a playlist go backwards (RFC 8216 6.2.1).
 */
export class Uploader {
  private readonly state = new Map<string, RenditionState>();
  private announcedBps = new Map<string, number>();
  private masterWritten = false;
  /** The renditions published, in the ladder's order; they can grow (addRenditions). */
  private readonly renditions: string[];
  /** The master lists fewer renditions than there are: written again once every one has a segment. */
  private masterShort = false;
  private ended = false;
  private busy: Promise<void> = Promise.resolve();

  constructor(private readonly o: UploaderOptions) {
    mkdirSync(o.originDir, { recursive: true });
    this.renditions = [...o.renditions];
    for (const name of this.renditions) this.state.set(name, this.restore(name));
    this.masterWritten = existsSync(join(o.originDir, 'master.m3u8'));
  }

  /** A rendition's state from what the origin holds: its playlist, and its segment files for pruning. */
  private restore(name: string): RenditionState {
    const st: RenditionState = {
      published: [],
      from: { mediaSequence: 0, discontinuitySequence: 0 },
      targetDuration: 0,
      resumed: false,
      names: new Set(),
      onOrigin: [],
      variant: null,
      peakBps: 0,
      sumBytes: 0,
      sumSeconds: 0,
    };
    const playlist = join(this.o.originDir, `${name}.m3u8`);
    if (!existsSync(playlist)) return st;
    const seen = parseMediaPlaylist(readFileSync(playlist, 'utf8'));
    st.published = seen.segments;
    st.from = { mediaSequence: seen.mediaSequence, discontinuitySequence: seen.discontinuitySequence };
    st.targetDuration = Math.max(seen.targetDuration ?? 0, ...seen.segments.map((s) => targetDurationFor(s.duration)));
    st.resumed = seen.segments.length > 0;
    const files = readdirSync(this.o.originDir).filter((f) => f.startsWith(`${name}_`) && segmentNumber(f) !== null);
    st.onOrigin = files.sort((a, b) => (segmentNumber(a) as number) - (segmentNumber(b) as number));
    for (const uri of [...st.onOrigin, ...seen.segments.map((s) => s.uri)]) st.names.add(uri);
    this.o.logger.info(
      {
        rendition: name,
        media_sequence: seen.mediaSequence,
        discontinuity_sequence: seen.discontinuitySequence,
        segments: seen.segments.length,
      },
      'playlist continued from the origin',
    );
    return st;
  }

  /** The ladder grew: its new renditions are published too, and listed in the master from their first segment. */
  addRenditions(names: string[]): void {
    for (const name of names.filter((n) => !this.state.has(n))) {
      this.state.set(name, this.restore(name));
      this.renditions.push(name);
      this.masterShort = true;
    }
  }

  /** True once viewers can start: the master playlist and a segment of every rendition are on the origin. */
  get playable(): boolean {
    return this.masterWritten;
  }

  /** One pass; passes never overlap. */
  tick(): Promise<void> {
    this.busy = this.busy
      .then(() => this.pass())
      .catch((err: unknown) => this.o.logger.error({ err }, 'upload pass failed'));
    return this.busy;
  }

  /** Last pass, then every playlist ends: players stop instead of waiting for more. */
  async finish(): Promise<void> {
    await this.tick();
    this.ended = true;
    for (const name of this.renditions) this.writeMediaPlaylist(name);
  }

  private async pass(): Promise<void> {
    // Renditions in parallel: their first segments' readings (for CODECS) would otherwise delay the master one after another.
    const fresh = await Promise.all(this.renditions.map((name) => this.publishRendition(name)));
    if (fresh.some(Boolean)) this.writeMasterIfDue();
  }

  /** New segments of one rendition to the origin and its playlist, then their measurements; whether there were any. */
  private async publishRendition(name: string): Promise<boolean> {
    const toProbe = await this.publishNew(name);
    if (toProbe === null) return false;
    // Viewers get the segment first; its measurement follows.
    this.writeMediaPlaylist(name);
    for (const { file, segment } of toProbe) {
      // A failed reading only skips a measurement: the next segment is read if CODECS are still missing.
      await this.o.probe(file).then(
        (probe) => this.measure(name, probe, segment),
        (err: unknown) => this.o.logger.warn({ err, rendition: name, segment: segment.uri }, 'segment probe failed'),
      );
    }
    // Pruned after reading: a segment being read is still on the origin.
    this.pruneOrigin(this.state.get(name) as RenditionState);
    return true;
  }

  /** Moves new segments to the origin; null when there was none, else those to measure. */
  private async publishNew(name: string): Promise<{ file: string; segment: MediaSegment }[] | null> {
    const st = this.state.get(name) as RenditionState;
    const playlist = join(this.o.workDir, `${name}.m3u8`);
    if (!existsSync(playlist)) return null;
    const listed = parseMediaPlaylist(readFileSync(playlist, 'utf8')).segments.filter((p) => !st.names.has(p.uri));
    let fresh = false;
    const toProbe: { file: string; segment: MediaSegment }[] = [];
    for (const listedSegment of await this.withSkipped(name, st, listed)) {
      const from = join(this.o.workDir, listedSegment.uri);
      if (!existsSync(from)) continue;
      const segment = st.resumed ? { ...listedSegment, discontinuity: true } : listedSegment;
      st.resumed = false;
      const bytes = statSync(from).size;
      // The top quality is read every segment (about a millisecond in-process), the others once for CODECS.
      const needsProbe = (st.variant === null && toProbe.length === 0) || name === 'source';
      // Same filesystem: a rename is atomic, and a viewer never sees half a segment.
      const published = join(this.o.originDir, segment.uri);
      renameSync(from, published);
      if (needsProbe) toProbe.push({ file: published, segment });
      this.o.onPublished?.(name, published);
      st.published.push(segment);
      st.targetDuration = Math.max(st.targetDuration, targetDurationFor(segment.duration));
      st.names.add(segment.uri);
      st.onOrigin.push(segment.uri);
      if (st.published.length === 1)
        this.o.logger.debug(
          { rendition: name, segment: segment.uri, duration: segment.duration },
          'first segment published',
        );
      fresh = true;
      if (segment.duration > 0) {
        st.peakBps = Math.max(st.peakBps, (bytes * 8) / segment.duration);
        st.sumBytes += bytes;
        st.sumSeconds += segment.duration;
      }
    }
    return fresh ? toProbe : null;
  }

  /** A probed segment: the rendition's size and CODECS for the master playlist, and the top quality's ingest measurements. */
  private measure(name: string, probe: SegmentProbe, segment: MediaSegment): void {
    const st = this.state.get(name) as RenditionState;
    if (probe.video && (st.variant === null || name === 'source')) {
      st.variant = {
        width: probe.video.width,
        height: probe.video.height,
        codecs: codecsString(probe) ?? 'avc1.640028',
        ...(probe.video.frameRate ? { frameRate: probe.video.frameRate } : {}),
      };
    }
    if (name === 'source') this.o.onSourceSegment(probe, segment);
  }

  /**
   * The ladder lists only its last segments: after a stall longer than that (a busy machine), the
   * segments that slid out are still in the folder, and are published in order, their length probed.
   */
  private async withSkipped(name: string, st: RenditionState, listed: MediaSegment[]): Promise<MediaSegment[]> {
    const last = st.published[st.published.length - 1];
    const first = listed[0];
    if (!first) return listed;
    // Numbering starts at 0; a segment already moved to the origin is no longer in the folder.
    const lastNumber = last ? segmentNumber(last.uri) : -1;
    const firstNumber = segmentNumber(first.uri);
    if (lastNumber === null || firstNumber === null || firstNumber <= lastNumber + 1) return listed;
    const skipped: MediaSegment[] = [];
    for (let n = lastNumber + 1; n < firstNumber; n++) {
      const uri = `${name}_${String(n).padStart(5, '0')}.ts`;
      const file = join(this.o.workDir, uri);
      if (!existsSync(file)) continue;
      const duration = (await this.o.probe(file)).duration ?? this.o.segmentSeconds;
      skipped.push({ uri, duration, discontinuity: false, programDateTime: null });
    }
    if (skipped.length)
      this.o.logger.warn(
        { rendition: name, segments: skipped.length },
        'segments recovered that slid out of the ladder playlist before upload',
      );
    return [...skipped, ...listed];
  }

  private writeMediaPlaylist(name: string): void {
    const st = this.state.get(name) as RenditionState;
    if (!st.published.length) return;
    const { window, mediaSequence, discontinuitySequence } = slideWindow(st.published, this.o.windowSegments, st.from);
    const text = renderWindowPlaylist({
      segments: window,
      mediaSequence,
      discontinuitySequence,
      targetDuration: Math.max(st.targetDuration, this.o.segmentSeconds),
      ended: this.ended,
    });
    writeAtomically(join(this.o.originDir, `${name}.m3u8`), text);
  }

  /** Written when every rendition has a segment; again when a rendition's peak outgrows what it announced by 10%. */
  private writeMasterIfDue(): void {
    const ready = this.renditions.every((n) => (this.state.get(n) as RenditionState).variant !== null);
    if (!ready) return;
    const grew = this.renditions.some(
      (n) => (this.state.get(n) as RenditionState).peakBps > (this.announcedBps.get(n) ?? 0) * 1.1,
    );
    if (this.masterWritten && !grew && !this.masterShort) return;
    this.masterShort = false;
    const variants: Variant[] = this.renditions.map((n) => {
      const st = this.state.get(n) as RenditionState;
      const bandwidth = Math.round(st.peakBps);
      this.announcedBps.set(n, bandwidth);
      return {
        ...(st.variant as NonNullable<RenditionState['variant']>),
        uri: `${n}.m3u8`,
        name: n,
        bandwidth,
        averageBandwidth: st.sumSeconds > 0 ? Math.round((st.sumBytes * 8) / st.sumSeconds) : bandwidth,
      };
    });
    writeAtomically(
      join(this.o.originDir, 'master.m3u8'),
      renderMasterPlaylist(variants.sort((a, b) => b.bandwidth - a.bandwidth)),
    );
    if (!this.masterWritten) this.o.logger.info({ renditions: this.renditions }, 'stream playable');
    this.masterWritten = true;
  }

  /** Segments that left the window stay one more window (players that loaded an older playlist), then go. */
  private pruneOrigin(st: RenditionState): void {
    const keep = this.o.windowSegments * 2;
    while (st.onOrigin.length > keep) rmSync(join(this.o.originDir, st.onOrigin.shift() as string), { force: true });
  }
}

const segmentNumber = (uri: string): number | null => {
  const m = /_(\d+)\.ts$/.exec(uri);
  return m ? Number(m[1]) : null;
};

export function writeAtomically(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text, { mode: 0o644 });
  renameSync(tmp, path);
}
