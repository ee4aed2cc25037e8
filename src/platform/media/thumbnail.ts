/** Stills are small: a 360-line JPEG is enough for a poster and a list of streams. */
export const THUMBNAIL_HEIGHT = 360;

/** The output half of a still's argv: at most 360 lines high, one JPEG. */
const stillOutput = (out: string): string[] => [
  '-vf',
  `scale=-2:'min(${THUMBNAIL_HEIGHT},ih)'`,
  '-q:v',
  '5',
  '-f',
  'image2',
  '-y',
  out,
];

/**
 * ffmpeg argv for one still: the segment's first frame (a keyframe, so one decode), at most 360
 * lines high. The decoder is told to skip all but keyframes and to use one thread (a frame-thread
 * pool would start, and queue frames, for a single picture), the audio is never opened, and the
 * probe stops at 1 MB (a keyframe and the SPS): measured on a 4-second 1080p 5 Mbps piece, 0.12-0.145
 * CPU-s per still before, 0.09-0.095 after, of which about 0.08 is ffmpeg's own start (`-version`).
 */
export function thumbnailArgs(segment: string, out: string): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-threads',
    '1',
    '-skip_frame',
    'nokey',
    '-probesize',
    '1M',
    '-an',
    '-i',
    segment,
    '-frames:v',
    '1',
    ...stillOutput(out),
  ];
}

/**
 * ffmpeg argv for a recording's still at `seconds` (a file or an http address: ffmpeg seeks with
 * range requests), scaled like a live still. `-ss` before the input seeks to the keyframe before
 * and decodes up to the time, so the frame is the one shown then. `fromEnd`: the last frame instead
 * (a time past the last frame's, which the rounded duration allows, gives none otherwise).
 */
export function recordingStillArgs(source: string, seconds: number, out: string, fromEnd = false): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    '-threads',
    '1',
    ...(fromEnd ? ['-sseof', '-3'] : ['-ss', seconds.toFixed(1)]),
    '-an',
    '-i',
    source,
    ...(fromEnd ? ['-update', '1'] : ['-frames:v', '1']),
    ...stillOutput(out),
  ];
}
