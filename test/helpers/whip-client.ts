import { createSocket, type Socket } from 'node:dgram';
import { execa, type ResultPromise } from 'execa';
import { MediaStreamTrack, RTCPeerConnection, RTCRtpCodecParameters, useNACK, usePLI, useREMB } from 'werift';

/**
 * A WHIP publisher in the test process, as a browser would be: werift sends H.264 + Opus that an
 * ffmpeg makes from a small lavfi source (320x180, keyframe every second: a test client cannot
 * answer PLI with a keyframe), over WebRTC to the endpoint.
 */
export interface WhipPublisher {
  /** The POST's answer. */
  status: number;
  location: string | null;
  body: string;
  /** Media seconds the source has produced since the session connected (wall clock, real-time source). */
  sentSeconds(): number;
  connected: Promise<void>;
  /** DELETE of the session's address; returns its status. */
  stop(): Promise<number>;
  /** Ends the client without telling the endpoint (a browser tab killed). */
  vanish(): Promise<void>;
}

const codecs = {
  video: [
    new RTCRtpCodecParameters({
      mimeType: 'video/H264',
      clockRate: 90000,
      rtcpFeedback: [useNACK(), usePLI(), useREMB()],
      parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
    }),
  ],
  audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
};

/** A sendonly offer (audio and video), with every candidate gathered; its connection is returned for answering. */
export async function makeOffer(
  video_ = codecs.video,
): Promise<{ pc: RTCPeerConnection; video: MediaStreamTrack; audio: MediaStreamTrack; offer: string }> {
  const pc = new RTCPeerConnection({
    codecs: { ...codecs, video: video_ },
    iceAdditionalHostAddresses: ['127.0.0.1'],
    iceUseIpv6: false,
    bundlePolicy: 'max-bundle',
  });
  const video = new MediaStreamTrack({ kind: 'video' });
  const audio = new MediaStreamTrack({ kind: 'audio' });
  pc.addTransceiver(video, { direction: 'sendonly' });
  pc.addTransceiver(audio, { direction: 'sendonly' });
  await pc.setLocalDescription(await pc.createOffer());
  const offer = pc.localDescription?.sdp;
  if (!offer) throw new Error('no offer');
  return { pc, video, audio, offer };
}

/** An offer of a browser that sends VP8 only. */
export const vp8Offer = async (): Promise<string> => {
  const { pc, offer } = await makeOffer([new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90000 })]);
  await pc.close();
  return offer;
};

/** The same offer as a browser sending three layers (RID simulcast) would make it. */
export function simulcastOffer(offer: string): string {
  return offer.replace(
    /(m=video[^]*?)(a=mid:[^\r\n]*\r?\n)/,
    '$1$2a=rid:h send\r\na=rid:l send\r\na=simulcast:send h;l\r\n',
  );
}

export async function postOffer(url: string, offer: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/sdp', ...headers }, body: offer });
}

const bindUdp = (): Promise<Socket> =>
  new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.bind(0, '127.0.0.1', () => resolve(socket));
  });

/** ffmpeg arguments that send the video RTP (H.264, payload type 96) and the audio RTP (Opus, 111) to two loopback ports. */
export type RtpSource = (videoPort: number, audioPort: number) => string[];

/** 320x180 at 15 fps with a keyframe every second, and a tone. */
const LAVFI_SOURCE: RtpSource = (videoPort, audioPort) => [
  '-re',
  '-f',
  'lavfi',
  '-i',
  'testsrc2=size=320x180:rate=15',
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=440:sample_rate=48000',
  '-map',
  '0:v',
  '-c:v',
  'libx264',
  '-preset',
  'ultrafast',
  '-tune',
  'zerolatency',
  '-profile:v',
  'baseline',
  '-pix_fmt',
  'yuv420p',
  '-g',
  '15',
  '-keyint_min',
  '15',
  '-sc_threshold',
  '0',
  '-b:v',
  '300k',
  '-bsf:v',
  'dump_extra',
  '-f',
  'rtp',
  '-payload_type',
  '96',
  `rtp://127.0.0.1:${videoPort}?pkt_size=1200`,
  '-map',
  '1:a',
  '-c:a',
  'libopus',
  '-b:a',
  '48k',
  '-ar',
  '48000',
  '-ac',
  '2',
  '-f',
  'rtp',
  '-payload_type',
  '111',
  `rtp://127.0.0.1:${audioPort}?pkt_size=1200`,
];

/**
 * An H.264 + AAC clip as a browser would send it: video copied, audio as Opus, in real time.
 * The clip's headers go before every keyframe; `headersInBand`: it has them there already (a
 * clip whose size changes, whose first headers would hide the later ones).
 */
export const clipSource =
  (clip: string, opts: { headersInBand?: boolean } = {}): RtpSource =>
  (videoPort, audioPort) => [
    '-re',
    '-i',
    clip,
    '-map',
    '0:v',
    '-c:v',
    'copy',
    '-bsf:v',
    opts.headersInBand ? 'h264_mp4toannexb' : 'h264_mp4toannexb,dump_extra',
    '-f',
    'rtp',
    '-payload_type',
    '96',
    `rtp://127.0.0.1:${videoPort}?pkt_size=1200`,
    '-map',
    '0:a',
    '-c:a',
    'libopus',
    '-b:a',
    '96k',
    '-ar',
    '48000',
    '-ac',
    '2',
    '-f',
    'rtp',
    '-payload_type',
    '111',
    `rtp://127.0.0.1:${audioPort}?pkt_size=1200`,
  ];

/** Publishes to `whipUrl`; media flows once connected. */
export async function whipPublish(
  whipUrl: string,
  source: RtpSource = LAVFI_SOURCE,
): Promise<WhipPublisher & { sourceExited: () => Promise<void> }> {
  const { pc, video, audio, offer } = await makeOffer();
  const res = await postOffer(whipUrl, offer);
  const body = await res.text();
  const location = res.headers.get('location');
  let ffmpeg: ResultPromise | null = null;
  const sockets: Socket[] = [];
  let connectedAt: number | null = null;
  const connected = new Promise<void>((resolve) => {
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') resolve();
    });
  });
  if (res.status === 201) {
    await pc.setRemoteDescription({ type: 'answer', sdp: body });
    const [vs, as] = [await bindUdp(), await bindUdp()];
    sockets.push(vs, as);
    vs.on('message', (m) => video.writeRtp(m));
    as.on('message', (m) => audio.writeRtp(m));
    void connected.then(() => {
      connectedAt = Date.now();
      ffmpeg = execa(
        'ffmpeg',
        ['-hide_banner', '-loglevel', 'error', ...source(vs.address().port, as.address().port)],
        { reject: false, stdin: 'ignore', buffer: false },
      );
    });
  }
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (ffmpeg) {
      ffmpeg.kill('SIGKILL');
      await ffmpeg;
    }
    for (const s of sockets) s.close();
    await pc.close().catch(() => {});
  };
  return {
    status: res.status,
    location,
    body,
    connected,
    sentSeconds: () => (connectedAt === null ? 0 : (Date.now() - connectedAt) / 1000),
    async stop() {
      const del = location ? await fetch(location, { method: 'DELETE' }) : null;
      await close();
      return del?.status ?? 0;
    },
    vanish: close,
    async sourceExited() {
      await connected;
      await ffmpeg;
    },
  };
}
