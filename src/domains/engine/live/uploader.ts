import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
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
import type { ObjectStore } from '../../../platform/storage/store.js';

export interface UploaderOptions {
  streamId: string;
  /** Where the ladder writes (`<rendition>.m3u8`, `<rendition>_00001.ts`). */
  workDir: string;
  /**
   * Where the origin is: the stream's files are `origin/<stream id>/<file>` in it (the origin's own
   * media folder on the node that holds it, the origin over HTTP on an ingest node).
   */
  store: ObjectStore;
  renditions: string[];
  windowSegments: number;
  segmentSeconds: number;
  probe: (file: string) => Promise<SegmentProbe>;
  /** Every segment of the top quality, read: the ingest measurements come from it. */
  onSourceSegment: (probe: SegmentProbe, segment: MediaSegment) => void;
  /** A segment is on the origin; `file` is its copy in the work folder, kept while the origin keeps it. */
  onPublished?: (rendition: string, file: string) => void;
  /** Pauses between the attempts of a segment upload that failed, before it is skipped (default: segmentRetries). */
  retryDelaysMs?: readonly number[];
  logger: Logger;
}

/**
 * The pauses before the retries of a failed segment upload: doubling from a quarter second while
 * they add up to one segment's length. A live segment is worth little once the next ones wait
 * behind it; the retries end well within a playlist window.
 */
export function segmentRetries(segmentSeconds: number): number[] {
  const delays: number[] = [];
  for (let d = 250, sum = 0; sum + d <= segmentSeconds * 1000; sum += d, d *= 2) delays.push(d);
  return delays;
}

interface OnOrigin {
  /** The file's name on the origin. */
  uri: string;
  /** Its copy in the work folder, which goes with it (null: none here). */
  work: string | null;
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
  /** The next segment published gets a discontinuity tag: an earlier appliance made the ones before, or one was skipped. */
  resumed: boolean;
  /**
   * What the ladder's segment numbers add up to on the origin: 0 when the ladder continues the
   * numbering the origin has (same work folder), else the origin's highest number and one (a
   * fresh work folder, on another node: its ladder starts again at 0).
   */
  offset: number;
  /** The ladder's segments handled (published or skipped), by their name in the work folder. */
  names: Set<string>;
  /** The ladder's number of the last segment handled (-1: none yet). */
  lastWork: number;
  /** Segment files on the origin, oldest first: the oldest go once there are more than two windows. */
  onOrigin: OnOrigin[];
  /** The playlist on the origin lags `published` (a write failed): written again at the next pass. */
  stale: boolean;
  variant: Omit<Variant, 'bandwidth' | 'uri' | 'name'> | null;
  peakBps: number;
  sumBytes: number;
  sumSeconds: number;
}

/**
 * Publishes the ladder's finished segments to the origin through a store: each segment is on the
 * origin before the playlist naming it is replaced (both whole objects), and the origin's
 * playlists list a sliding window. The master playlist is written once every rendition has a
 * segment, with CODECS read from the segments themselves (ffmpeg leaves them out for copied streams).
 *
 * The origin's playlists are also the uploader's memory: one made after a restart, or on another
 * node after this one died, reads them and continues their MEDIA-SEQUENCE, DISCONTINUITY-SEQUENCE
 * and TARGETDURATION, its first segment marked as a discontinuity, so that players never see a
 * playlist go backwards (RFC 8216 6.2.1). A segment the origin does not take within a few retries
 * is skipped (the playlist never names it; the next one is a discontinuity): the ladder never waits.
 */
export class Uploader {
  private readonly state = new Map<string, RenditionState>();
  private announcedBps = new Map<string, number>();
  private masterWritten = false;
  /** Whether the master on the origin was looked for (after a restart it may be there). */
  private masterKnown = false;
  /** The renditions published, in the ladder's order; they can grow (addRenditions). */
  private readonly renditions: string[];
  /** Renditions whose ladder started in an empty work folder: decided when they were added, before the ladder writes. */
  private readonly freshWork = new Set<string>();
  /** The master lists fewer renditions than there are: written again once every one has a segment. */
  private masterShort = false;
  private ended = false;
  private running: Promise<void> | null = null;
  private failing = false;
  private readonly prefix: string;
  private readonly retryDelays: readonly number[];

  constructor(private readonly o: UploaderOptions) {
    this.prefix = `origin/${o.streamId}/`;
    this.retryDelays = o.retryDelaysMs ?? segmentRetries(o.segmentSeconds);
    this.renditions = [];
    this.addRenditions(o.renditions);
    this.masterShort = false;
  }

  /** A rendition's state from what the origin holds: its playlist, and its segment files for pruning. */
  private async restore(name: string): Promise<RenditionState> {
    const st: RenditionState = {
      published: [],
      from: { mediaSequence: 0, discontinuitySequence: 0 },
      targetDuration: 0,
      resumed: false,
      offset: 0,
      names: new Set(),
      lastWork: -1,
      onOrigin: [],
      stale: false,
      variant: null,
      peakBps: 0,
      sumBytes: 0,
      sumSeconds: 0,
    };
    const playlist = await this.o.store.get(`${this.prefix}${name}.m3u8`);
    if (playlist === null) return st;
    const seen = parseMediaPlaylist(playlist.toString('utf8'));
    st.published = seen.segments;
    st.from = { mediaSequence: seen.mediaSequence, discontinuitySequence: seen.discontinuitySequence };
    st.targetDuration = Math.max(seen.targetDuration ?? 0, ...seen.segments.map((s) => targetDurationFor(s.duration)));
    st.resumed = seen.segments.length > 0;
    const files = (await this.o.store.list(`${this.prefix}${name}_`))
      .map((o) => o.key.slice(this.prefix.length))
      .filter((f) => segmentNumber(f) !== null)
      .sort((a, b) => (segmentNumber(a) as number) - (segmentNumber(b) as number));
    const uris = [...files, ...seen.segments.map((s) => s.uri)];
    const highest = Math.max(-1, ...uris.map((u) => segmentNumber(u) ?? -1));
    if (this.freshWork.has(name)) st.offset = highest + 1;
    else {
      // The same work folder: the ladder's names are the origin's.
      for (const uri of uris) st.names.add(uri);
      st.lastWork = segmentNumber(seen.segments.at(-1)?.uri ?? '') ?? -1;
    }
    st.onOrigin = files.map((uri) => ({ uri, work: st.offset === 0 ? join(this.o.workDir, uri) : null }));
    this.o.logger.info(
      {
        rendition: name,
        media_sequence: seen.mediaSequence,
        discontinuity_sequence: seen.discontinuitySequence,
        segments: seen.segments.length,
        numbering_offset: st.offset,
      },
      'playlist continued from the origin',
    );
    return st;
  }

  /** The ladder grew: its new renditions are published too, and listed in the master from their first segment. */
  addRenditions(names: string[]): void {
    for (const name of names.filter((n) => !this.renditions.includes(n))) {
      if (!existsSync(join(this.o.workDir, `${name}.m3u8`))) this.freshWork.add(name);
      this.renditions.push(name);
      this.masterShort = true;
    }
  }

  /** True once viewers can start: the master playlist and a segment of every rendition are on the origin. */
  get playable(): boolean {
    return this.masterWritten;
  }

  /** One pass; a tick while one runs waits for that one (a pass takes every segment the ladder has). */
  tick(): Promise<void> {
    this.running ??= this.pass()
      .then(
        () => {
          if (this.failing) this.o.logger.info('upload passes work again');
          this.failing = false;
        },
        (err: unknown) => {
          // Ten passes a second: an origin away for a while is said once, not each time.
          if (!this.failing) this.o.logger.error({ err }, 'upload pass failed; retried every pass');
          this.failing = true;
        },
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Last pass, then every playlist ends: players stop instead of waiting for more. */
  async finish(): Promise<void> {
    await this.running;
    await this.tick();
    this.ended = true;
    for (const name of this.renditions) if (this.state.has(name)) await this.writeMediaPlaylist(name);
  }

  private async pass(): Promise<void> {
    // What the origin holds comes first: until it could be read, nothing is published (numbers would go back).
    for (const name of this.renditions) if (!this.state.has(name)) this.state.set(name, await this.restore(name));
    if (!this.masterKnown) {
      this.masterWritten = (await this.o.store.get(`${this.prefix}master.m3u8`)) !== null;
      this.masterKnown = true;
    }
    // Renditions in parallel: their first segments' readings (for CODECS) would otherwise delay the master one after another.
    const fresh = await Promise.all(this.renditions.map((name) => this.publishRendition(name)));
    if (fresh.some(Boolean) || this.masterShort) await this.writeMasterIfDue();
  }

  /** New segments of one rendition to the origin and its playlist, then their measurements; whether there were any. */
  private async publishRendition(name: string): Promise<boolean> {
    const st = this.state.get(name) as RenditionState;
    const toProbe = await this.publishNew(name);
    if (toProbe === null && !st.stale) return false;
    // Viewers get the segment first; its measurement follows.
    await this.writeMediaPlaylist(name);
    for (const { file, segment } of toProbe ?? []) {
      // A failed reading only skips a measurement: the next segment is read if CODECS are still missing.
      await this.o.probe(file).then(
        (probe) => this.measure(name, probe, segment),
        (err: unknown) => this.o.logger.warn({ err, rendition: name, segment: segment.uri }, 'segment probe failed'),
      );
    }
    // Pruned after reading: a segment being read is still there.
    await this.prune(name, st);
    return toProbe !== null;
  }

  /** Puts new segments on the origin; null when there was none, else those to measure. */
  private async publishNew(name: string): Promise<{ file: string; segment: MediaSegment }[] | null> {
    const st = this.state.get(name) as RenditionState;
    const playlist = join(this.o.workDir, `${name}.m3u8`);
    if (!existsSync(playlist)) return null;
    const listed = parseMediaPlaylist(readFileSync(playlist, 'utf8')).segments.filter((p) => !st.names.has(p.uri));
    let fresh = false;
    // After a segment the origin did not take, the others of this pass get one attempt each: it is likely down.
    let originDown = false;
    const toProbe: { file: string; segment: MediaSegment }[] = [];
    for (const listedSegment of await this.withSkipped(name, st, listed)) {
      const from = join(this.o.workDir, listedSegment.uri);
      if (!existsSync(from)) continue;
      st.names.add(listedSegment.uri);
      st.lastWork = Math.max(st.lastWork, segmentNumber(listedSegment.uri) ?? st.lastWork);
      const uri = renumber(listedSegment.uri, st.offset);
      if (!(await this.upload(name, uri, from, originDown ? [] : this.retryDelays))) {
        originDown = true;
        // Players see a jump in time: the next segment published is a discontinuity.
        st.resumed = st.published.length > 0;
        rmSync(from, { force: true });
        continue;
      }
      originDown = false;
      const segment = { ...listedSegment, uri, discontinuity: listedSegment.discontinuity || st.resumed };
      st.resumed = false;
      const bytes = statSync(from).size;
      // The top quality is read every segment (about a millisecond in-process), the others once for CODECS.
      const needsProbe = (st.variant === null && toProbe.length === 0) || name === 'source';
      if (needsProbe) toProbe.push({ file: from, segment });
      this.o.onPublished?.(name, from);
      st.published.push(segment);
      st.stale = true;
      st.targetDuration = Math.max(st.targetDuration, targetDurationFor(segment.duration));
      st.onOrigin.push({ uri, work: from });
      if (st.published.length === 1)
        this.o.logger.debug({ rendition: name, segment: uri, duration: segment.duration }, 'first segment published');
      fresh = true;
      if (segment.duration > 0) {
        st.peakBps = Math.max(st.peakBps, (bytes * 8) / segment.duration);
        st.sumBytes += bytes;
        st.sumSeconds += segment.duration;
      }
    }
    return fresh ? toProbe : null;
  }

  /** One segment to the origin, retried after each pause in `delays`; false when it could not be put there. */
  private async upload(name: string, uri: string, file: string, delays: readonly number[]): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await this.o.store.putFile(`${this.prefix}${uri}`, file);
        return true;
      } catch (err) {
        const pause = delays[attempt];
        if (pause === undefined) {
          this.o.logger.warn(
            { err, rendition: name, segment: uri, attempts: attempt + 1 },
            'segment skipped: the origin did not take it',
          );
          return false;
        }
        await new Promise((r) => setTimeout(r, pause));
      }
    }
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
    const first = listed[0];
    if (!first) return listed;
    // Numbering starts at 0.
    const lastNumber = st.lastWork;
    const firstNumber = segmentNumber(first.uri);
    if (firstNumber === null || firstNumber <= lastNumber + 1) return listed;
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

  /** The rendition's window to the origin; a failed write is logged and tried again at the next pass. */
  private async writeMediaPlaylist(name: string): Promise<void> {
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
    try {
      await this.o.store.put(`${this.prefix}${name}.m3u8`, text, { contentType: 'application/vnd.apple.mpegurl' });
      st.stale = false;
    } catch (err) {
      this.o.logger.warn({ err, rendition: name }, 'playlist not written to the origin; again at the next pass');
    }
  }

  /** Written when every rendition has a segment; again when a rendition's peak outgrows what it announced by 10%. */
  private async writeMasterIfDue(): Promise<void> {
    const ready = this.renditions.every((n) => this.state.get(n)?.variant);
    if (!ready) return;
    const grew = this.renditions.some(
      (n) => (this.state.get(n) as RenditionState).peakBps > (this.announcedBps.get(n) ?? 0) * 1.1,
    );
    if (this.masterWritten && !grew && !this.masterShort) return;
    const variants: Variant[] = this.renditions.map((n) => {
      const st = this.state.get(n) as RenditionState;
      return {
        ...(st.variant as NonNullable<RenditionState['variant']>),
        uri: `${n}.m3u8`,
        name: n,
        bandwidth: Math.round(st.peakBps),
        averageBandwidth: st.sumSeconds > 0 ? Math.round((st.sumBytes * 8) / st.sumSeconds) : Math.round(st.peakBps),
      };
    });
    // A failed write throws: the pass is logged, and the next one writes it (masterShort or the growth still stand).
    await this.o.store.put(
      `${this.prefix}master.m3u8`,
      renderMasterPlaylist(variants.sort((a, b) => b.bandwidth - a.bandwidth)),
      { contentType: 'application/vnd.apple.mpegurl' },
    );
    for (const v of variants) this.announcedBps.set(v.name, v.bandwidth);
    this.masterShort = false;
    if (!this.masterWritten) this.o.logger.info({ renditions: this.renditions }, 'stream playable');
    this.masterWritten = true;
  }

  /** Segments that left the window stay one more window (players that loaded an older playlist), then go, with their work copy. */
  private async prune(name: string, st: RenditionState): Promise<void> {
    const keep = this.o.windowSegments * 2;
    while (st.onOrigin.length > keep) {
      const gone = st.onOrigin.shift() as OnOrigin;
      if (gone.work) rmSync(gone.work, { force: true });
      // Left behind, it goes with the stream's folder when the stream ends.
      await this.o.store
        .delete(`${this.prefix}${gone.uri}`)
        .catch((err: unknown) =>
          this.o.logger.warn({ err, rendition: name, segment: gone.uri }, 'old segment not deleted'),
        );
    }
  }
}

const segmentNumber = (uri: string): number | null => {
  const m = /_(\d+)\.ts$/.exec(uri);
  return m ? Number(m[1]) : null;
};

/** A work folder's segment name as the origin has it: its number moved on by `offset`. */
const renumber = (uri: string, offset: number): string =>
  offset === 0
    ? uri
    : uri.replace(/_(\d+)\.ts$/, (_, n: string) => `_${String(Number(n) + offset).padStart(5, '0')}.ts`);
