import type { SegmentProbe } from '../../src/platform/media/probe.js';

/**
 * ffprobe's view of a media file as a SegmentProbe: the reference the in-process segment reader
 * is checked against, and a quick look at what a remux wrote.
 */

/**
 * One ffprobe call, no decoding: the stream entries for every stream plus each packet's
 * stream index, pts and flags. `-select_streams v:0` would also drop the audio stream
 * from the stream list, so packets come for every stream and the parser keeps the
 * video's (audio packets are all flagged K). A 4-second segment is ~300 packets, ~30 KB.
 */
export function ffprobeSegmentArgs(file: string): string[] {
  return [
    '-v',
    'error',
    '-print_format',
    'json=compact=1',
    '-show_entries',
    'stream=index,codec_type,codec_name,profile,level,width,height,avg_frame_rate,r_frame_rate,codec_tag_string:packet=stream_index,pts_time,flags:format=duration',
    file,
  ];
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
