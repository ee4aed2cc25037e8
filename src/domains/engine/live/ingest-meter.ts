import type { IngestMeasurement } from '../../streams/model.js';
import { keyframeInterval, type SegmentProbe } from '../../../platform/media/probe.js';

/** Spec: portrait 720x1280 counts as 720; 12% slack either way. */
const RESOLUTION_SLACK = 1.12;
const KEYFRAME_WARNING_SECONDS = 2.5;
/** Keyframe intervals are averaged over this many recent segments of the top quality. */
const KEYFRAME_SEGMENTS = 4;

/**
 * What a publisher sends, measured: bytes received (nginx's counter, everything included) over
 * a sliding window, and the frame size and keyframes of the segments it produced (what was really
 * sent, not the publisher's own metadata).
 */
export class IngestMeter {
  private samples: { at: number; bytes: number }[] = [];
  private segments: { keyframes: number[]; duration: number | null }[] = [];
  private size: { width: number; height: number } | null = null;
  /**
   * The appliance asks the publisher for its keyframes (WHIP): their interval is ours, not the
   * publisher's setting, and is not reported (spec: null for WHIP publishers).
   */
  keyframesRequested = false;

  constructor(private readonly windowSeconds: number) {}

  addBytes(at: Date, bytesIn: number): void {
    const t = at.getTime();
    // nginx's counter restarts with each publish session: keep the window per session.
    const last = this.samples[this.samples.length - 1];
    if (last && bytesIn < last.bytes) this.samples = [];
    this.samples.push({ at: t, bytes: bytesIn });
    const horizon = t - this.windowSeconds * 1000;
    while (this.samples.length > 2 && (this.samples[1] as { at: number }).at <= horizon) this.samples.shift();
  }

  addSegment(probe: SegmentProbe): void {
    if (probe.video) this.size = { width: probe.video.width, height: probe.video.height };
    this.segments.push({ keyframes: probe.keyframeTimes, duration: probe.duration });
    if (this.segments.length > KEYFRAME_SEGMENTS) this.segments.shift();
  }

  /** Average kbps over the window; null until two samples a second apart exist. */
  kbps(): number | null {
    const first = this.samples[0];
    const last = this.samples[this.samples.length - 1];
    if (!first || !last || last.at - first.at < 1000) return null;
    return Math.round(((last.bytes - first.bytes) * 8) / (last.at - first.at));
  }

  measure(at: Date, limits: { maxResolution: number; maxKbps: number }): IngestMeasurement | null {
    const kbps = this.kbps();
    if (kbps === null && !this.size) return null;
    const interval = this.keyframesRequested ? null : averageInterval(this.segments);
    return {
      width: this.size?.width ?? null,
      height: this.size?.height ?? null,
      kbps,
      observed_at: at.toISOString(),
      limit_warning: brokenLimit(kbps, this.size, limits),
      keyframe_interval_seconds: interval === null ? null : Math.round(interval * 100) / 100,
      keyframe_warning: interval !== null && interval > KEYFRAME_WARNING_SECONDS,
    };
  }
}

export function brokenLimit(
  kbps: number | null,
  size: { width: number; height: number } | null,
  limits: { maxResolution: number; maxKbps: number },
): IngestMeasurement['limit_warning'] {
  if (kbps !== null && kbps > limits.maxKbps) return 'limit_bitrate';
  if (size && !withinResolution(size, limits.maxResolution)) return 'limit_resolution';
  return null;
}

/** The short side against the declared height, the long side against its 16:9 width, both with slack. */
export function withinResolution(size: { width: number; height: number }, declared: number): boolean {
  const short = Math.min(size.width, size.height);
  const long = Math.max(size.width, size.height);
  return short <= declared * RESOLUTION_SLACK && long <= ((declared * 16) / 9) * RESOLUTION_SLACK;
}

/**
 * Within each measured segment. Segments are cut on keyframes, so a segment holding a single
 * keyframe means an interval of at least its length.
 */
function averageInterval(segments: { keyframes: number[]; duration: number | null }[]): number | null {
  let sum = 0;
  let n = 0;
  for (const segment of segments) {
    const within = keyframeInterval(segment.keyframes);
    if (within !== null) {
      sum += within * (segment.keyframes.length - 1);
      n += segment.keyframes.length - 1;
    } else if (segment.keyframes.length === 1 && segment.duration) {
      sum += segment.duration;
      n += 1;
    }
  }
  return n ? sum / n : null;
}
