import type { StatStream } from '../../../platform/nginx/rtmp-stat.js';

/** nginx-rtmp's name for H.264 (ngx_rtmp_codec_module.c), the one video codec the spec accepts. */
const H264 = 'H264';

export type SourceVerdict =
  | { kind: 'accepted'; width: number; height: number; hasAudio: boolean }
  | { kind: 'refused'; video: string | null; reason: string }
  /** Not known yet: ask again while the metadata may still come. */
  | { kind: 'unknown' };

/**
 * The publisher's metadata against the spec's publisher limits ("Codec: H.264"): H.264 video is
 * accepted with its size; other video (Sorenson H.263, VP6, screen video), or audio without
 * video once the metadata has settled (`final`), is refused. No metadata yet is unknown.
 */
export function judgeSource(meta: StatStream['meta'], final: boolean): SourceVerdict {
  if (!meta) return { kind: 'unknown' };
  if (meta.videoCodec !== null && meta.videoCodec !== H264) {
    return { kind: 'refused', video: meta.videoCodec, reason: `it sends ${meta.videoCodec} video; H.264 is required` };
  }
  if (meta.width && meta.height)
    return { kind: 'accepted', width: meta.width, height: meta.height, hasAudio: meta.audioCodec !== null };
  if (final && meta.audioCodec !== null)
    return { kind: 'refused', video: null, reason: 'it sends audio without video; H.264 video is required' };
  return { kind: 'unknown' };
}
