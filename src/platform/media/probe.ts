/**
 * What is inside one HLS segment, from ffprobe's JSON: codecs for the master playlist's CODECS
 * attribute, and keyframe times to check the ladder's alignment. The caller runs ffprobe.
 */

/**
 * One ffprobe call, no decoding: the stream entries for every stream plus each packet's
 * stream index, pts and flags. `-select_streams v:0` would also drop the audio stream
 * from the stream list, so packets come for every stream and the parser keeps the
 * video's (audio packets are all flagged K). A 4-second segment is ~300 packets, ~30 KB.
 */
export function ffprobeSegmentArgs(file: string): string[] {
  return [
    '-v', 'error',
    '-print_format', 'json=compact=1',
    '-show_entries',
    'stream=index,codec_type,codec_name,profile,level,width,height,avg_frame_rate,r_frame_rate,codec_tag_string:packet=stream_index,pts_time,flags:format=duration',
    file,
  ];
}

/** ffprobe argv that prints a file's duration in seconds and nothing else (e.g. `12.345000`). */
export function ffprobeDurationArgs(file: string): string[] {
  return ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file];
}

export interface SegmentProbe {
  video: { codec: string; profile: string | null; level: number | null; width: number; height: number; frameRate: number | null } | null;
  audio: { codec: string; profile: string | null } | null;
  /** pts (seconds) of the video keyframes, in file order. */
  keyframeTimes: number[];
  duration: number | null;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && value !== 'unknown' && value !== 'N/A' ? value : null;
}

/** ffprobe prints numbers as numbers for ints and as strings for times. */
function num(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** "30/1" -> 30, "30000/1001" -> 29.97; "0/0" (unknown) -> null. */
function rate(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const [n, d] = value.split('/').map(Number);
  if (n === undefined || d === undefined || !Number.isFinite(n) || !Number.isFinite(d) || n <= 0 || d <= 0) return null;
  return n / d;
}

export function parseSegmentProbe(json: string): SegmentProbe {
  const root: unknown = JSON.parse(json);
  if (!isObject(root)) throw new Error('ffprobe output is not a JSON object');
  const streams = Array.isArray(root.streams) ? root.streams.filter(isObject) : [];
  const packets = Array.isArray(root.packets) ? root.packets.filter(isObject) : [];

  const v = streams.find((s) => s.codec_type === 'video');
  const a = streams.find((s) => s.codec_type === 'audio');
  const width = num(v?.width);
  const height = num(v?.height);
  const level = num(v?.level);
  const video =
    v && text(v.codec_name) && width !== null && height !== null
      ? {
          codec: text(v.codec_name) as string,
          profile: text(v.profile),
          // ffprobe prints -99 when the level is unknown
          level: level !== null && level > 0 ? level : null,
          width,
          height,
          frameRate: rate(v.avg_frame_rate) ?? rate(v.r_frame_rate),
        }
      : null;
  const audio = a && text(a.codec_name) ? { codec: text(a.codec_name) as string, profile: text(a.profile) } : null;

  const keyframeTimes: number[] = [];
  if (v) {
    for (const p of packets) {
      if (p.stream_index !== v.index || typeof p.flags !== 'string' || !p.flags.startsWith('K')) continue;
      const t = num(p.pts_time);
      if (t !== null) keyframeTimes.push(t);
    }
  }
  const format = isObject(root.format) ? root.format : {};
  return { video, audio, keyframeTimes, duration: num(format.duration) };
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
