import { join } from 'node:path';

/**
 * The ABR ladder: which renditions a publish session gets, and the one ffmpeg argv that makes
 * them as 4-second HLS segments. Numbers and flags are the ones measured in
 * shared/research/pipeline_feasibility.md (sections 2 and 7).
 */

export type RenditionName = 'source' | '720p' | '480p';

export interface Rendition {
  name: RenditionName;
  copy: boolean;
  /** Target SHORT side of the frame (720 for 1280x720 and for 720x1280); null when copied. */
  height: number | null;
  videoKbps: number | null;
  maxrateKbps: number | null;
  bufsizeKbps: number | null;
  h264Profile: 'high' | 'main' | null;
}

export type LadderProfile = 'abr_basic' | 'passthrough';

const SOURCE: Rendition = {
  name: 'source',
  copy: true,
  height: null,
  videoKbps: null,
  maxrateKbps: null,
  bufsizeKbps: null,
  h264Profile: null,
};
const R720: Rendition = {
  name: '720p',
  copy: false,
  height: 720,
  videoKbps: 2800,
  maxrateKbps: 3000,
  bufsizeKbps: 6000,
  h264Profile: 'high',
};
const R480: Rendition = {
  name: '480p',
  copy: false,
  height: 480,
  videoKbps: 1100,
  maxrateKbps: 1200,
  bufsizeKbps: 2400,
  h264Profile: 'main',
};

/**
 * Size classes go by the short side so portrait sources rank like their landscape twins.
 * The thresholds sit below the nominal sizes so slightly cropped or odd encoder sizes
 * (1080x1000, 1280x664) still get the rungs below them, and never so low that a rung
 * would be an upscale or barely smaller than the source:
 * - short side >= 1000: 1080-class (also 1440p and 4K): source + 720p + 480p
 * - short side >= 660:  720-class: source + 480p
 * - below: source only (a 480p rung would be no smaller than what was sent)
 */
export const CLASS_1080_MIN_SHORT_SIDE = 1000;
export const CLASS_720_MIN_SHORT_SIDE = 660;

/** Top quality is always the publisher's own video, copied; encoded rungs only go below it. */
export function planLadder(profile: LadderProfile, source: { width: number; height: number }): Rendition[] {
  const renditions: Rendition[] = [{ ...SOURCE }];
  if (profile === 'passthrough') return renditions;
  const shortSide = Math.min(source.width, source.height);
  if (shortSide >= CLASS_1080_MIN_SHORT_SIDE) renditions.push({ ...R720 }, { ...R480 });
  else if (shortSide >= CLASS_720_MIN_SHORT_SIDE) renditions.push({ ...R480 });
  return renditions;
}

export interface LadderOptions {
  /** rtmp:// URL of the session on loopback, `pipe:0` (nginx's recording of the session, fed on stdin), or a file. */
  input: string;
  /** The input's container when it cannot be probed from a name (`flv` on stdin). */
  inputFormat?: 'flv';
  outDir: string;
  renditions: Rendition[];
  hasAudio: boolean;
  /** x264 preset for the encoded rungs, e.g. superfast. */
  preset: string;
  /** Target segment length; segments are cut on the publisher's keyframes, so its GOP must divide it. */
  segmentSeconds: number;
  /**
   * Length of the first segments when the output folder is fresh (0: none shorter). ffmpeg 5.1
   * ignores -hls_init_time together with append_list, so a fresh folder gets init time and no
   * append_list, and later sessions (and restarts) append without it.
   */
  firstSegmentSeconds?: number;
  threads?: number;
}

/**
 * Keyframe cap for the encoded rungs. Their keyframes are forced onto the publisher's
 * (-force_key_frames source); x264 must not add its own in between, or an encoded rung
 * would be cut where the copied one is not. 600 frames is 10 s at 60 fps.
 */
const MAX_GOP_FRAMES = 600;

/**
 * Scale so the short side becomes `target`, either orientation, width and height even.
 * A target square box with force_original_aspect_ratio=increase does that without a
 * comma-laden if() expression: 1920x1080 -> 1280x720, 1080x1920 -> 720x1280, 640x480 -> 640x480.
 * format=yuv420p keeps the High/Main profiles valid for 4:2:2 or 10-bit publishers.
 */
function scaleFilter(target: number): string {
  return `scale=w=${target}:h=${target}:force_original_aspect_ratio=increase:force_divisible_by=2,format=yuv420p`;
}

function positiveInteger(value: number | null, what: string): number {
  if (value === null || !Number.isInteger(value) || value <= 0)
    throw new RangeError(`${what} must be a positive integer, got ${String(value)}`);
  return value;
}

/**
 * The ffmpeg argv (without the binary) for one publish session: one media playlist per
 * rendition, `<outDir>/<name>.m3u8` with segments `<outDir>/<name>_00000.ts`. No master
 * playlist: ffmpeg leaves CODECS out for copied streams, so the app writes its own.
 */
/** Segments listed in the ladder's own playlists; the uploader reads them every 100 ms. */
export const WORK_LIST_SIZE = 2;

export function ladderArgs(o: LadderOptions): string[] {
  if (o.renditions.length === 0) throw new RangeError('a ladder needs at least one rendition');
  const names = new Set(o.renditions.map((r) => r.name));
  if (names.size !== o.renditions.length) throw new RangeError('rendition names must be unique');
  positiveInteger(o.segmentSeconds, 'segmentSeconds');
  if (!/^[a-z]+$/.test(o.preset)) throw new RangeError(`invalid x264 preset ${JSON.stringify(o.preset)}`);

  const format = o.inputFormat ? ['-f', o.inputFormat] : [];
  const args = ['-hide_banner', '-nostdin', '-loglevel', 'warning', '-nostats', ...format, '-i', o.input];

  const encoded = o.renditions.filter((r) => !r.copy);
  if (encoded.length > 0) {
    const label = (r: Rendition) => `[v${r.name}]`;
    const chains =
      encoded.length === 1
        ? [
            `[0:v:0]${scaleFilter(positiveInteger(encoded[0]!.height, `${encoded[0]!.name} height`))}${label(encoded[0]!)}`,
          ]
        : [
            `[0:v:0]split=${encoded.length}${encoded.map((_, i) => `[s${i}]`).join('')}`,
            ...encoded.map((r, i) => `[s${i}]${scaleFilter(positiveInteger(r.height, `${r.name} height`))}${label(r)}`),
          ];
    args.push('-filter_complex', chains.join(';'));
  }

  // Output stream order is the -map order: video i (and audio i) belong to rendition i.
  for (const r of o.renditions) {
    args.push('-map', r.copy ? '0:v:0' : `[v${r.name}]`);
    if (o.hasAudio) args.push('-map', '0:a:0');
  }

  o.renditions.forEach((r, i) => {
    const v = `v:${i}`;
    if (r.copy) {
      args.push(`-c:${v}`, 'copy');
      return;
    }
    const kbps = (value: number | null, what: string) => `${positiveInteger(value, `${r.name} ${what}`)}k`;
    if (r.h264Profile === null) throw new RangeError(`${r.name} needs an h264 profile`);
    args.push(
      `-c:${v}`,
      'libx264',
      `-preset:${v}`,
      o.preset,
      `-profile:${v}`,
      r.h264Profile,
      `-b:${v}`,
      kbps(r.videoKbps, 'videoKbps'),
      `-maxrate:${v}`,
      kbps(r.maxrateKbps, 'maxrateKbps'),
      `-bufsize:${v}`,
      kbps(r.bufsizeKbps, 'bufsizeKbps'),
      `-force_key_frames:${v}`,
      'source',
      `-sc_threshold:${v}`,
      '0',
      `-g:${v}`,
      String(MAX_GOP_FRAMES),
    );
  });
  if (o.hasAudio) args.push('-c:a', 'copy');
  if (o.threads !== undefined) args.push('-threads', String(positiveInteger(o.threads, 'threads')));

  // Without passthrough, CFR mode duplicates frames before the first decoded one and the
  // encoded rungs start earlier than the copied one (research, section 2).
  args.push('-fps_mode', 'passthrough');

  const fresh = (o.firstSegmentSeconds ?? 0) > 0;
  const streamMap = o.renditions
    .map((r, i) => (o.hasAudio ? `v:${i},a:${i},name:${r.name}` : `v:${i},name:${r.name}`))
    .join(' ');
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(o.segmentSeconds),
    // A short sliding list (the uploader keeps the history): ffmpeg applies -hls_init_time to
    // the first list_size + 2 segments, and rewriting a list of thousands every segment would cost.
    '-hls_list_size',
    String(WORK_LIST_SIZE),
    ...(fresh ? ['-hls_init_time', String(o.firstSegmentSeconds)] : []),
    // omit_endlist keeps the list live across a reconnect; append_list continues numbering
    // in the same files and marks the join with EXT-X-DISCONTINUITY (research, section 7).
    '-hls_flags',
    `temp_file+independent_segments+program_date_time+omit_endlist${fresh ? '' : '+append_list'}`,
    '-var_stream_map',
    streamMap,
    '-hls_segment_filename',
    join(o.outDir, '%v_%05d.ts'),
    join(o.outDir, '%v.m3u8'),
  );
  return args;
}
