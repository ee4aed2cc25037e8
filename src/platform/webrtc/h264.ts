/** NAL unit types that start a decodable picture: an IDR slice, or the SPS sent before it. */
const starts = (nal: number) => nal === 5 || nal === 7;

/**
 * Whether an H.264 RTP payload (RFC 6184) begins a keyframe: a single SPS or IDR unit, a STAP-A
 * aggregate holding one, or the first fragment (FU-A) of one. ffmpeg must start on one, or it
 * cannot decode ("non-existing PPS") and the first segment is lost.
 */
export function startsKeyframe(payload: Buffer): boolean {
  if (payload.length < 2) return false;
  const type = (payload[0] as number) & 0x1f;
  if (starts(type)) return true;
  if (type === 24) {
    for (let o = 1; o + 2 < payload.length; o += 2 + payload.readUInt16BE(o)) {
      if (starts((payload[o + 2] as number) & 0x1f)) return true;
    }
    return false;
  }
  const fu = payload[1] as number;
  return type === 28 && (fu & 0x80) !== 0 && starts(fu & 0x1f);
}
