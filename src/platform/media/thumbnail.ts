/** Stills are small: a 360-line JPEG is enough for a poster and a list of streams. */
export const THUMBNAIL_HEIGHT = 360;

/** ffmpeg argv for one still: the segment's first frame (a keyframe, so one decode), at most 360 lines high. */
export function thumbnailArgs(segment: string, out: string): string[] {
  return ['-hide_banner', '-loglevel', 'error', '-nostdin', '-i', segment, '-frames:v', '1', '-vf', `scale=-2:'min(${THUMBNAIL_HEIGHT},ih)'`, '-q:v', '5', '-f', 'image2', '-y', out];
}
