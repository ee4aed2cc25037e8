/**
 * What is inside one HLS segment (read by segment-reader.ts): codecs for the master playlist's
 * CODECS attribute, frame size and keyframe times for the ingest measurements.
 */

/** ffprobe argv that prints a file's duration in seconds and nothing else (e.g. `12.345000`). */
export function ffprobeDurationArgs(file: string): string[] {
  return ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file];
}

export interface SegmentProbe {
  video: {
    codec: string;
    profile: string | null;
    level: number | null;
    width: number;
    height: number;
    frameRate: number | null;
  } | null;
  audio: { codec: string; profile: string | null } | null;
  /** pts (seconds) of the video keyframes, in file order. */
  keyframeTimes: number[];
  duration: number | null;
}

/**
 * H.264 profile name (as ffprobe prints it) -> profile_idc and the constraint-flags byte
 * of RFC 6381's avc1.PPCCLL. ffprobe does not print the SPS flags, so the byte is the one
 * each profile implies by definition: Constrained Baseline is profile 66 with
 * constraint_set0+1 (C0, what x264 writes: avc1.42c01e), a Main stream always satisfies
 * constraint_set1 (40, what x264 writes: avc1.4d401f), the intra and constrained High
 * variants carry set3/set4/set5; everything else 00.
 */
const H264_PROFILES: Record<string, [idc: number, constraints: number]> = {
  Baseline: [0x42, 0x00],
  'Constrained Baseline': [0x42, 0xc0],
  Main: [0x4d, 0x40],
  Extended: [0x58, 0x00],
  High: [0x64, 0x00],
  'Progressive High': [0x64, 0x08],
  'Constrained High': [0x64, 0x0c],
  'High 10': [0x6e, 0x00],
  'High 10 Intra': [0x6e, 0x10],
  'High 4:2:2': [0x7a, 0x00],
  'High 4:2:2 Intra': [0x7a, 0x10],
  'High 4:4:4 Predictive': [0xf4, 0x00],
  'High 4:4:4 Intra': [0xf4, 0x10],
  'CAVLC 4:4:4': [0x2c, 0x00],
};

const AAC_OBJECT_TYPES: Record<string, number> = { LC: 2, 'HE-AAC': 5, 'HE-AACv2': 29, Main: 1, LTP: 4 };

const hex2 = (n: number) => n.toString(16).padStart(2, '0');

function videoCodecs(v: NonNullable<SegmentProbe['video']>): string | null {
  if (v.codec !== 'h264' || v.profile === null || v.level === null || v.level > 0xff) return null;
  const profile = H264_PROFILES[v.profile];
  if (!profile) return null;
  return `avc1.${hex2(profile[0])}${hex2(profile[1])}${hex2(v.level)}`;
}

function audioCodecs(a: NonNullable<SegmentProbe['audio']>): string | null {
  switch (a.codec) {
    case 'aac': {
      const objectType = a.profile === null ? undefined : AAC_OBJECT_TYPES[a.profile];
      return objectType === undefined ? null : `mp4a.40.${objectType}`;
    }
    case 'mp3':
      return 'mp4a.40.34';
    case 'ac3':
      return 'ac-3';
    case 'eac3':
      return 'ec-3';
    default:
      return null;
  }
}

/**
 * RFC 6381 CODECS for the master playlist, e.g. `avc1.64001f,mp4a.40.2`. Null when any
 * present stream cannot be named exactly: a wrong CODECS makes players skip the variant,
 * a missing one only makes them probe.
 */
export function codecsString(p: SegmentProbe): string | null {
  const parts: string[] = [];
  if (p.video) {
    const v = videoCodecs(p.video);
    if (v === null) return null;
    parts.push(v);
  }
  if (p.audio) {
    const a = audioCodecs(p.audio);
    if (a === null) return null;
    parts.push(a);
  }
  return parts.length > 0 ? parts.join(',') : null;
}

/** Mean seconds between consecutive keyframes; null with fewer than two. */
export function keyframeInterval(times: number[]): number | null {
  if (times.length < 2) return null;
  const sorted = [...times].sort((a, b) => a - b);
  return ((sorted[sorted.length - 1] as number) - (sorted[0] as number)) / (sorted.length - 1);
}
