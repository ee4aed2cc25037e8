/**
 * The recording: every publish session nginx-rtmp recorded, joined into one MP4 by copying
 * (never re-encoding) what the publisher sent. The caller writes the list and runs ffmpeg.
 */

/**
 * The concat demuxer's list of the session files, in order. Paths are single-quoted, and a
 * quote inside one is closed, escaped and reopened, as the demuxer reads it.
 */
export function concatList(files: string[]): string {
  return files.map((f) => `file '${f.replaceAll("'", "'\\''")}'`).join('\n') + '\n';
}

/**
 * The ffmpeg argv (without the binary) that joins the files of `list` into `out`: the first
 * video and the first audio stream, each optional (`?`) because a publisher may send only one;
 * -safe 0 because the list holds absolute paths; +faststart puts the index first, so a
 * download plays before it has fully arrived.
 */
export function remuxArgs(list: string, out: string): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'concat',
    '-safe',
    '0',
    '-i',
    list,
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    '-c',
    'copy',
    '-movflags',
    '+faststart',
    out,
  ];
}

/** The replay's media playlist and its one media file, in the recording's `replay/` folder. */
export const REPLAY_PLAYLIST = 'index.m3u8';
export const REPLAY_MEDIA = 'media.mp4';

/** A bucket that sends nothing for this long has stopped answering (ffmpeg's `rw_timeout`, in µs). */
const BUCKET_SILENCE_US = 15_000_000;

/**
 * The ffmpeg argv that copies the recording `mp4` (a file, or a bucket's presigned address) into
 * HLS VOD in `dir`: fragmented MP4 in one file addressed by byte ranges (one object per replay for
 * the CDN, nothing re-encoded), pieces of about 6 s cut on the recording's keyframes,
 * `EXT-X-PLAYLIST-TYPE:VOD` and `EXT-X-ENDLIST`.
 */
export function replayArgs(mp4: string, dir: string): string[] {
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    // A long remux is fine; a bucket gone silent is not (it would hold the recordings job).
    ...(/^https?:/.test(mp4) ? ['-rw_timeout', String(BUCKET_SILENCE_US)] : []),
    '-i',
    mp4,
    '-map',
    '0:v:0?',
    '-map',
    '0:a:0?',
    '-c',
    'copy',
    '-f',
    'hls',
    '-hls_time',
    '6',
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'fmp4',
    '-hls_flags',
    'single_file',
    '-hls_segment_filename',
    `${dir}/${REPLAY_MEDIA}`,
    `${dir}/${REPLAY_PLAYLIST}`,
  ];
}
