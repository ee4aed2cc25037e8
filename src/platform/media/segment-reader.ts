import { readFile } from 'node:fs/promises';
import type { SegmentProbe } from './probe.js';

/**
 * What ffprobe told about one HLS segment, read in-process from the MPEG-TS bytes: PAT and PMT
 * name the streams, each PES header carries a pts, the H.264 SPS gives profile, level, frame size
 * and (VUI) frame rate, the access unit's NAL types tell keyframes, the first ADTS header tells
 * the AAC object type. Nothing is decoded. An ffprobe start cost about 0.1 CPU-s per segment; this
 * reads a 4-second 5 Mbps segment in about 2 ms, file read included (`npm run bench -- segment`;
 * docs/decisions.md, "Segment facts read in-process").
 */

const PACKET = 188;
const SYNC = 0x47;
const CLOCK = 90_000;
const WRAP = 2 ** 33;

/** ISO 13818-1 stream_type -> codec name as ffprobe prints it (those a publisher can send through FLV, and AC-3). */
const AUDIO_TYPES: Record<number, string> = {
  0x03: 'mp3',
  0x04: 'mp3',
  0x0f: 'aac',
  0x11: 'aac_latm',
  0x81: 'ac3',
  0x87: 'eac3',
};
const H264 = 0x1b;

const AAC_PROFILES = ['Main', 'LC', 'SSR', 'LTP'];

interface Pes {
  kind: 'video' | 'audio';
  codec: string;
  /** Where the TS payloads of the PES being gathered are in the file: start, end, start, end... */
  ranges: number[];
}

interface Sps {
  profile: string | null;
  level: number | null;
  width: number;
  height: number;
  frameRate: number | null;
}

export function readSegment(bytes: Uint8Array): SegmentProbe {
  const streams = new Map<number, Pes>();
  const pmtPids = new Set<number>();
  let sps: Sps | null = null;
  let videoCodec: string | null = null;
  let audio: SegmentProbe['audio'] = null;
  const keyframeTimes: number[] = [];
  const videoPts: number[] = [];
  let audioEnd: number | null = null;
  let start = Infinity;
  let firstPts: number | null = null;

  /** pts in seconds; a segment that crosses the 33-bit wrap (every 26.5 h) keeps counting up. */
  const seconds = (pts: number) => {
    firstPts ??= pts;
    const unwrapped = pts - firstPts < -WRAP / 2 ? pts + WRAP : pts;
    return unwrapped / CLOCK;
  };

  /**
   * The PES header and, in video, the NAL units before the first slice sit in a PES's first
   * packets: those are joined, more only when they do not reach that far (a long SEI), never the
   * whole picture (a 5 Mbps keyframe is ~700 packets).
   */
  const finish = (pes: Pes) => {
    const ranges = pes.ranges;
    pes.ranges = [];
    const count = ranges.length / 2;
    for (let take = Math.min(count, 4); take > 0; take = take === count ? 0 : Math.min(count, take * 4)) {
      const whole = take === count;
      const data = join(bytes, ranges, take);
      const header = pesHeader(data);
      if (!header || header.payloadStart > data.length) continue;
      if (header.pts === null) return;
      const payload = data.subarray(header.payloadStart);
      const au = pes.kind === 'video' ? readAccessUnit(payload, whole) : null;
      if (pes.kind === 'video' && !au) continue;
      const t = seconds(header.pts);
      start = Math.min(start, t);
      if (au) {
        videoPts.push(t);
        if (au.sps && !sps) sps = au.sps;
        if (au.key) keyframeTimes.push(t);
        return;
      }
      if (!audio) audio = { codec: pes.codec, profile: pes.codec === 'aac' ? adtsProfile(payload) : null };
      // As ffprobe counts it: an audio stream ends where its last PES starts.
      audioEnd = Math.max(audioEnd ?? t, t);
      return;
    }
  };

  for (let at = 0; at + PACKET <= bytes.length; at += PACKET) {
    if (bytes[at] !== SYNC) {
      // Lost sync: the next packet start, or the end.
      const next = bytes.indexOf(SYNC, at + 1);
      if (next < 0) break;
      at = next - PACKET;
      continue;
    }
    const unitStart = ((bytes[at + 1] as number) & 0x40) !== 0;
    const pid = (((bytes[at + 1] as number) & 0x1f) << 8) | (bytes[at + 2] as number);
    const control = ((bytes[at + 3] as number) >> 4) & 0x03;
    if ((control & 0x01) === 0) continue;
    const offset = at + 4 + (control & 0x02 ? 1 + (bytes[at + 4] as number) : 0);
    if (offset >= at + PACKET) continue;
    if (pid === 0 && unitStart) {
      for (const p of readPat(bytes.subarray(offset, at + PACKET))) pmtPids.add(p);
    } else if (pmtPids.has(pid) && unitStart) {
      for (const es of readPmt(bytes.subarray(offset, at + PACKET))) {
        if (streams.has(es.pid)) continue;
        if (es.streamType === H264 && videoCodec === null) {
          videoCodec = 'h264';
          streams.set(es.pid, { kind: 'video', codec: 'h264', ranges: [] });
        } else if (AUDIO_TYPES[es.streamType] && ![...streams.values()].some((s) => s.kind === 'audio')) {
          streams.set(es.pid, { kind: 'audio', codec: AUDIO_TYPES[es.streamType] as string, ranges: [] });
        }
      }
    } else {
      const pes = streams.get(pid);
      if (!pes) continue;
      if (unitStart) finish(pes);
      // A PES is read from its start: bytes before the first unit start belong to the last segment's.
      if (unitStart || pes.ranges.length > 0) pes.ranges.push(offset, at + PACKET);
    }
  }
  for (const pes of streams.values()) finish(pes);

  const found = sps as Sps | null;
  const video =
    videoCodec && found
      ? {
          codec: videoCodec,
          profile: found.profile,
          level: found.level,
          width: found.width,
          height: found.height,
          frameRate: found.frameRate ?? averageRate(videoPts),
        }
      : null;
  let end: number | null = audioEnd;
  if (videoPts.length > 0) {
    const rate = video?.frameRate ?? averageRate(videoPts);
    const videoEnd = Math.max(...videoPts) + (rate ? 1 / rate : 0);
    end = Math.max(end ?? videoEnd, videoEnd);
  }
  return {
    video,
    audio,
    keyframeTimes,
    duration: end === null || start === Infinity ? null : round6(end - start),
  };
}

/** ffprobe prints times with six decimals. */
const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Frames per second from the pts when the SPS has no timing: frames over the time they span. */
function averageRate(pts: number[]): number | null {
  if (pts.length < 2) return null;
  const span = Math.max(...pts) - Math.min(...pts);
  return span > 0 ? (pts.length - 1) / span : null;
}

/** A PSI section's body after the pointer field, and its end before the CRC; null when cut off. */
function section(payload: Uint8Array): { body: Uint8Array; end: number } | null {
  const start = 1 + (payload[0] ?? 0);
  const s = payload.subarray(start);
  if (s.length < 3) return null;
  const length = (((s[1] as number) & 0x0f) << 8) | (s[2] as number);
  const end = Math.min(3 + length - 4, s.length);
  return { body: s, end };
}

function readPat(payload: Uint8Array): number[] {
  const sec = section(payload);
  if (!sec || sec.body[0] !== 0x00) return [];
  const pids: number[] = [];
  for (let i = 8; i + 4 <= sec.end; i += 4) {
    const program = ((sec.body[i] as number) << 8) | (sec.body[i + 1] as number);
    if (program !== 0) pids.push((((sec.body[i + 2] as number) & 0x1f) << 8) | (sec.body[i + 3] as number));
  }
  return pids;
}

function readPmt(payload: Uint8Array): { streamType: number; pid: number }[] {
  const sec = section(payload);
  if (!sec || sec.body[0] !== 0x02) return [];
  const b = sec.body;
  const programInfo = (((b[10] as number) & 0x0f) << 8) | (b[11] as number);
  const out: { streamType: number; pid: number }[] = [];
  for (let i = 12 + programInfo; i + 5 <= sec.end;) {
    const esInfo = (((b[i + 3] as number) & 0x0f) << 8) | (b[i + 4] as number);
    out.push({ streamType: b[i] as number, pid: (((b[i + 1] as number) & 0x1f) << 8) | (b[i + 2] as number) });
    i += 5 + esInfo;
  }
  return out;
}

/** The first `take` ranges of the file as one array (a view when there is one). */
function join(bytes: Uint8Array, ranges: number[], take: number): Uint8Array {
  if (take === 1) return bytes.subarray(ranges[0], ranges[1]);
  let size = 0;
  for (let r = 0; r < take * 2; r += 2) size += (ranges[r + 1] as number) - (ranges[r] as number);
  const out = new Uint8Array(size);
  let at = 0;
  for (let r = 0; r < take * 2; r += 2) {
    out.set(bytes.subarray(ranges[r], ranges[r + 1]), at);
    at += (ranges[r + 1] as number) - (ranges[r] as number);
  }
  return out;
}

function pesHeader(d: Uint8Array): { pts: number | null; payloadStart: number } | null {
  if (d.length < 9 || d[0] !== 0 || d[1] !== 0 || d[2] !== 1) return null;
  const hasPts = ((d[7] as number) & 0x80) !== 0;
  const payloadStart = 9 + (d[8] as number);
  if (!hasPts || d.length < 14) return { pts: null, payloadStart };
  // 33 bits in 5 bytes with marker bits; the top 3 bits would overflow a 32-bit shift.
  const pts =
    (((d[9] as number) >> 1) & 0x07) * 2 ** 30 +
    (((d[10] as number) << 22) |
      (((d[11] as number) >> 1) << 15) |
      ((d[12] as number) << 7) |
      ((d[13] as number) >> 1));
  return { pts, payloadStart };
}

/** The AAC object type from the first ADTS header. */
function adtsProfile(d: Uint8Array): string | null {
  if (d.length < 7 || d[0] !== 0xff || ((d[1] as number) & 0xf0) !== 0xf0) return null;
  return AAC_PROFILES[(d[2] as number) >> 6] ?? null;
}

/**
 * The NAL units of one access unit up to its first slice (the parameter sets and SEI come before
 * it). A keyframe as ffmpeg's H.264 parser flags one: an IDR slice, or a slice after a recovery
 * point SEI (open GOPs, periodic intra refresh). Null when `d` is only the start of the access
 * unit and ends before its first slice (or inside a parameter set or SEI).
 */
function readAccessUnit(d: Uint8Array, whole: boolean): { key: boolean; sps: Sps | null } | null {
  let sps: Sps | null = null;
  let recovery = false;
  for (let i = nextStartCode(d, 0); i >= 0 && i < d.length;) {
    const type = (d[i] as number) & 0x1f;
    if (type === 5) return { key: true, sps };
    if (type >= 1 && type <= 4) return { key: recovery, sps };
    const end = nextStartCode(d, i);
    if (end < 0 && !whole) return null;
    const nalEnd = end < 0 ? d.length : end - 3;
    if (type === 7 && !sps) sps = readSps(unescape(d.subarray(i + 1, nalEnd)));
    if (type === 6 && !recovery) recovery = seiHasRecoveryPoint(unescape(d.subarray(i + 1, nalEnd)));
    i = end;
  }
  return whole ? { key: false, sps } : null;
}

/** Index just after the next 00 00 01 at or after `from`; -1 when none. */
function nextStartCode(d: Uint8Array, from: number): number {
  for (let i = from; i + 2 < d.length; i++) {
    if ((d[i + 2] as number) > 1) {
      i += 2;
      continue;
    }
    if (d[i] === 0 && d[i + 1] === 0 && d[i + 2] === 1) return i + 3;
  }
  return -1;
}

/** RBSP from a NAL payload: drops each emulation-prevention 03 after 00 00. */
function unescape(d: Uint8Array): Uint8Array {
  const out = new Uint8Array(d.length);
  let n = 0;
  let zeros = 0;
  for (const byte of d) {
    if (zeros >= 2 && byte === 3) {
      zeros = 0;
      continue;
    }
    zeros = byte === 0 ? zeros + 1 : 0;
    out[n++] = byte;
  }
  return out.subarray(0, n);
}

function seiHasRecoveryPoint(d: Uint8Array): boolean {
  let i = 0;
  while (i < d.length && d[i] !== 0x80) {
    let type = 0;
    for (; d[i] === 0xff; i++) type += 255;
    type += d[i++] ?? 0;
    let size = 0;
    for (; d[i] === 0xff; i++) size += 255;
    size += d[i++] ?? 0;
    if (type === 6) return true;
    i += size;
  }
  return false;
}

class Bits {
  private pos = 0;
  constructor(private readonly d: Uint8Array) {}
  u(n: number): number {
    let v = 0;
    for (let k = 0; k < n; k++) {
      const byte = this.d[this.pos >> 3];
      if (byte === undefined) throw new RangeError('SPS cut off');
      v = v * 2 + ((byte >> (7 - (this.pos & 7))) & 1);
      this.pos++;
    }
    return v;
  }
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) if (++zeros > 31) throw new RangeError('bad exp-Golomb code');
    return 2 ** zeros - 1 + this.u(zeros);
  }
  se(): number {
    const k = this.ue();
    return k % 2 ? (k + 1) / 2 : -k / 2;
  }
}

/** profile_idc values whose SPS carries chroma format, bit depths and scaling matrices. */
const HIGH_PROFILES = new Set([100, 110, 122, 244, 44, 83, 86, 118, 128, 138, 139, 134, 135]);

/** ffprobe's names (libavcodec profiles.c); the constrained and intra ones as ff_h264_get_profile tells them. */
function profileName(idc: number, constraints: number): string | null {
  const set1 = (constraints & 0x40) !== 0;
  const set3 = (constraints & 0x10) !== 0;
  switch (idc) {
    case 66:
      return set1 ? 'Constrained Baseline' : 'Baseline';
    case 77:
      return 'Main';
    case 88:
      return 'Extended';
    case 100:
      return 'High';
    case 110:
      return set3 ? 'High 10 Intra' : 'High 10';
    case 122:
      return set3 ? 'High 4:2:2 Intra' : 'High 4:2:2';
    case 244:
      return set3 ? 'High 4:4:4 Intra' : 'High 4:4:4 Predictive';
    case 44:
      return 'CAVLC 4:4:4';
    default:
      return null;
  }
}

/** H.264 7.3.2.1.1 as far as the VUI timing; null when the SPS is cut off or malformed. */
function readSps(d: Uint8Array): Sps | null {
  try {
    const b = new Bits(d);
    const idc = b.u(8);
    const constraints = b.u(8);
    const level = b.u(8);
    b.ue(); // seq_parameter_set_id
    let chromaFormat = 1;
    let separatePlanes = 0;
    if (HIGH_PROFILES.has(idc)) {
      chromaFormat = b.ue();
      if (chromaFormat === 3) separatePlanes = b.u(1);
      b.ue(); // bit_depth_luma_minus8
      b.ue(); // bit_depth_chroma_minus8
      b.u(1); // qpprime_y_zero_transform_bypass_flag
      if (b.u(1)) {
        for (let list = 0; list < (chromaFormat === 3 ? 12 : 8); list++) {
          if (!b.u(1)) continue;
          let last = 8;
          let next = 8;
          for (let j = 0; j < (list < 6 ? 16 : 64) && next !== 0; j++) {
            next = (last + b.se() + 256) % 256;
            if (next !== 0) last = next;
          }
        }
      }
    }
    b.ue(); // log2_max_frame_num_minus4
    const pocType = b.ue();
    if (pocType === 0) b.ue();
    else if (pocType === 1) {
      b.u(1);
      b.se();
      b.se();
      for (let n = b.ue(); n > 0; n--) b.se();
    }
    b.ue(); // max_num_ref_frames
    b.u(1); // gaps_in_frame_num_value_allowed_flag
    const widthMbs = b.ue() + 1;
    const heightMapUnits = b.ue() + 1;
    const frameMbsOnly = b.u(1);
    if (!frameMbsOnly) b.u(1); // mb_adaptive_frame_field_flag
    b.u(1); // direct_8x8_inference_flag
    const crop = b.u(1) ? [b.ue(), b.ue(), b.ue(), b.ue()] : [0, 0, 0, 0];
    const chromaArray = separatePlanes ? 0 : chromaFormat;
    const cropX = chromaArray === 1 || chromaArray === 2 ? 2 : 1;
    const cropY = (chromaArray === 1 ? 2 : 1) * (2 - frameMbsOnly);
    const [left, right, top, bottom] = crop as [number, number, number, number];
    const width = widthMbs * 16 - cropX * (left + right);
    const height = (2 - frameMbsOnly) * heightMapUnits * 16 - cropY * (top + bottom);
    return {
      profile: profileName(idc, constraints),
      level: level > 0 ? level : null,
      width,
      height,
      frameRate: b.u(1) ? vuiFrameRate(b) : null,
    };
  } catch {
    return null;
  }
}

/** E.1.1 up to timing_info: frames per second = time_scale / (2 * num_units_in_tick). */
function vuiFrameRate(b: Bits): number | null {
  if (b.u(1) && b.u(8) === 255) b.u(32); // aspect_ratio_idc, Extended_SAR
  if (b.u(1)) b.u(1); // overscan
  if (b.u(1)) {
    b.u(4); // video_format, video_full_range_flag
    if (b.u(1)) b.u(24); // colour description
  }
  if (b.u(1)) {
    b.ue();
    b.ue();
  }
  if (!b.u(1)) return null;
  const units = b.u(32);
  const scale = b.u(32);
  return units > 0 && scale > 0 ? scale / (2 * units) : null;
}

/** One finished segment on disk (the uploader's CODECS and the ingest meter's frame size and keyframes). */
export async function readSegmentFile(file: string): Promise<SegmentProbe> {
  return readSegment(await readFile(file));
}
