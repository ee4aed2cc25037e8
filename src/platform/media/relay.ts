/**
 * The WHIP relay: ffmpeg reads a browser's RTP from loopback (described by an SDP file), copies
 * the H.264, turns Opus into AAC 48 kHz (RTMP and HLS carry no Opus) and publishes RTMP into
 * the appliance's own nginx, where the stream is admitted and laddered like any RTMP publisher.
 * Flags measured in shared/research/whip_feasibility.md.
 */
/** Where a relay (WHIP, SRT) publishes: the appliance's own nginx-rtmp. */
export interface RelayTarget {
  /** rtmp://127.0.0.1:<port>/live: no secret, ffmpeg prints it in its errors. */
  rtmpUrl: string;
  /** `<stream id>?relay=<one-time credential>`: never the stream's key, which `ps` would show every local user. */
  playpath: string;
}

/** ffmpeg's output arguments that publish to a relay's target. */
export const relayOutputArgs = (target: RelayTarget): string[] => [
  '-rtmp_playpath',
  target.playpath,
  '-rtmp_live',
  'live',
  '-f',
  'flv',
  target.rtmpUrl,
];

export interface RelayOptions extends RelayTarget {
  sdpFile: string;
  hasAudio: boolean;
}

export function relayArgs(opts: RelayOptions): string[] {
  return [
    '-hide_banner',
    '-nostdin',
    '-loglevel',
    'error',
    '-protocol_whitelist',
    'file,udp,rtp',
    // Probe little: the relay starts on a keyframe (SPS first), so the size is known at once.
    '-fflags',
    '+genpts',
    '-analyzeduration',
    '100000',
    '-fpsprobesize',
    '0',
    // Loopback delivers in order; the queue absorbs what the browser's network reordered.
    '-reorder_queue_size',
    '256',
    '-buffer_size',
    '4194304',
    '-i',
    opts.sdpFile,
    '-map',
    '0:v:0',
    ...(opts.hasAudio ? ['-map', '0:a:0'] : []),
    '-c:v',
    'copy',
    ...(opts.hasAudio ? ['-c:a', 'aac', '-b:a', '128k', '-ar', '48000', '-ac', '2'] : []),
    ...relayOutputArgs(opts),
  ];
}
