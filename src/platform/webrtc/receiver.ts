import { createSocket, type Socket } from 'node:dgram';
import {
  MediaStreamTrack,
  ReceiverEstimatedMaxBitrate,
  RTCPeerConnection,
  RTCRtpCodecParameters,
  RtcpPayloadSpecificFeedback,
  RTCRtpTransceiver,
  RtcpSrPacket,
  useAbsSendTime,
  useFIR,
  useNACK,
  usePLI,
  useREMB,
  useSdesMid,
} from 'werift';
import type { Logger } from '../../core/logger.js';
import { startsKeyframe } from './h264.js';
import { TrackClock } from './sender-reports.js';
import { chooseCodecs, trimAnswer, type Chosen } from './sdp.js';

export interface ReceiverOptions {
  /** Addresses announced as host candidates besides the interfaces' (the public address, loopback). */
  iceAddresses: string[];
  /** UDP ports ICE may use, inclusive (the firewall opens them). */
  icePorts: [number, number];
  /** What the browser is told it may send (REMB), in bits per second. */
  maxBitrate: number;
  /** A keyframe is asked for this often: HLS cuts segments only on keyframes. */
  keyframeEveryMs: number;
  /** No ICE + DTLS connection this long after the answer: the session ends. */
  connectTimeoutMs: number;
  /** No media this long once connected: the session ends (werift notices a vanished peer only after 30 s). */
  idleTimeoutMs: number;
  logger: Logger;
}

export type ReceiverEnd = 'closed' | 'failed' | 'connect_timeout' | 'idle';

/** The loopback ports a relay listens on; RTCP (sender reports) goes to the port above each. */
export interface RelayPorts {
  video: number;
  audio: number;
}

const REMB_EVERY_MS = 500;
const WATCH_EVERY_MS = 1000;

type Kind = 'video' | 'audio';

/**
 * One browser's WebRTC session (werift): answers its offer with one H.264 and one Opus payload
 * type, then passes the decrypted RTP to a relay on loopback UDP, starting on a keyframe so the
 * relay can decode from its first packet, each track preceded by a sender report (TrackClock).
 * Asks for keyframes (PLI) and states the bitrate it accepts (REMB). Knows no stream: the WHIP
 * domain decides what the session is for.
 */
export class WebrtcReceiver {
  /** Set by answerOffer before anyone sees the receiver. */
  answer = '';
  chosen: Chosen = null as unknown as Chosen;
  private readonly socket: Socket;
  private target: RelayPorts | null = null;
  private gateOpen = false;
  /** Padding-only packets dropped so far: later sequence numbers close the gaps they leave. */
  private padding = 0;
  private connected = false;
  private lastMediaMs = performance.now();
  private readonly startedMs = performance.now();
  private readonly timers: NodeJS.Timeout[] = [];
  private keyframeTimer: NodeJS.Timeout;
  private ended: ReceiverEnd | null = null;
  private endListeners: ((why: ReceiverEnd) => void)[] = [];
  private videoSsrc: number | null = null;
  private readonly clocks: Record<Kind, TrackClock> = { video: new TrackClock(90_000), audio: new TrackClock(48_000) };
  /** Tracks whose first sender report the current relay has had. */
  private readonly reported = new Set<Kind>();
  private videoTransceiver: RTCRtpTransceiver | null = null;
  /** Called once when the first media reaches the relay (the first keyframe). */
  onFirstMedia: (() => void) | null = null;

  private constructor(
    private readonly pc: RTCPeerConnection,
    private readonly opts: ReceiverOptions,
  ) {
    this.socket = createSocket('udp4');
    this.socket.on('error', (err) => opts.logger.warn({ err }, 'relay socket error'));
    pc.ontrack = ({ track, transceiver }) => this.track(track, transceiver);
    pc.connectionStateChange.subscribe((state) => {
      if (state === 'connected') {
        this.connected = true;
        this.lastMediaMs = performance.now();
      }
      if (state === 'failed' || state === 'closed') this.end(state === 'failed' ? 'failed' : 'closed');
    });
    this.timers.push(setInterval(() => this.watch(), WATCH_EVERY_MS));
    this.timers.push(setInterval(() => this.sendRemb(), REMB_EVERY_MS));
    this.keyframeTimer = setInterval(() => this.askKeyframe(), opts.keyframeEveryMs);
  }

  /** Answers an offer; null when it has no H.264 (packetization-mode 1) to copy. */
  static async answerOffer(offer: string, opts: ReceiverOptions): Promise<WebrtcReceiver | null> {
    const pc = new RTCPeerConnection({
      codecs: {
        video: [
          new RTCRtpCodecParameters({
            mimeType: 'video/H264',
            clockRate: 90000,
            rtcpFeedback: [useNACK(), usePLI(), useFIR(), useREMB()],
            parameters: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f',
          }),
        ],
        audio: [new RTCRtpCodecParameters({ mimeType: 'audio/opus', clockRate: 48000, channels: 2 })],
      },
      headerExtensions: { video: [useSdesMid(), useAbsSendTime()], audio: [useSdesMid()] },
      iceAdditionalHostAddresses: opts.iceAddresses,
      iceUseIpv6: false,
      icePortRange: opts.icePorts,
    });
    // Listening before the offer is applied: werift announces the tracks while applying it.
    const receiver = new WebrtcReceiver(pc, opts);
    try {
      await pc.setRemoteDescription({ type: 'offer', sdp: offer });
      await pc.setLocalDescription(await pc.createAnswer());
      const local = pc.localDescription?.sdp;
      const chosen = local ? chooseCodecs(local) : null;
      if (!local || !chosen) {
        await receiver.close();
        return null;
      }
      receiver.chosen = chosen;
      receiver.answer = trimAnswer(local, chosen);
      return receiver;
    } catch (err) {
      await receiver.close();
      // werift refuses offers with no codec it knows (VP8-only video, no Opus) this way.
      if (err instanceof Error && /negotiate codecs failed/.test(err.message)) return null;
      throw err;
    }
  }

  /** Calls `listener` once when the session ends, with why. */
  onEnd(listener: (why: ReceiverEnd) => void): void {
    if (this.ended) listener(this.ended);
    else this.endListeners.push(listener);
  }

  /**
   * Media goes to a relay listening on `ports` from the next keyframe on (asked for now);
   * null stops it (the relay restarts).
   */
  forwardTo(ports: RelayPorts | null): void {
    this.target = ports;
    this.gateOpen = false;
    this.reported.clear();
    if (ports) this.askKeyframe();
  }

  async close(): Promise<void> {
    this.end('closed');
    await this.pc.close().catch(() => {});
  }

  private track(track: MediaStreamTrack, transceiver: RTCRtpTransceiver): void {
    const video = track.kind === 'video';
    if (video) {
      this.videoTransceiver = transceiver;
      this.videoSsrc = track.ssrc ?? null;
    }
    track.onReceiveRtp.subscribe((rtp) => {
      if (video && this.videoSsrc === null) this.videoSsrc = rtp.header.ssrc;
      if (rtp.payload.length === 0) {
        // Bandwidth probes: ffmpeg rejects empty H.264 packets, and a bare gap stalls it.
        if (video && this.gateOpen) this.padding++;
        return;
      }
      this.lastMediaMs = performance.now();
      const kind: Kind = video ? 'video' : 'audio';
      // Monotonic: only differences of these times reach ffmpeg.
      this.clocks[kind].packet(rtp.header.timestamp, rtp.header.ssrc, performance.timeOrigin + performance.now());
      const target = this.target;
      if (!target) return;
      if (video && !this.gateOpen) {
        if (!startsKeyframe(rtp.payload)) return;
        this.gateOpen = true;
        this.padding = 0;
        this.keyframesFromNow();
        this.onFirstMedia?.();
      }
      if (!this.gateOpen) return;
      if (!this.reported.has(kind)) {
        const report = this.clocks[kind].firstReport(this.clocks[video ? 'audio' : 'video']);
        if (report) this.sendReport(kind, report, target);
        this.reported.add(kind);
      }
      if (video) rtp.header.sequenceNumber = (rtp.header.sequenceNumber - this.padding) & 0xffff;
      this.socket.send(rtp.serialize(), video ? target.video : target.audio, '127.0.0.1');
    });
    // Sender reports carry the wall clock of each track: ffmpeg aligns audio and video with them.
    track.onReceiveRtcp.subscribe((packet) => {
      if (packet.type !== RtcpSrPacket.type) return;
      const kind: Kind = video ? 'video' : 'audio';
      const report = this.clocks[kind].report(packet);
      // A track not yet started gets its report ahead of its first packet.
      if (this.target && this.reported.has(kind)) this.sendReport(kind, report, this.target);
    });
  }

  private sendReport(kind: Kind, report: RtcpSrPacket, target: RelayPorts): void {
    this.socket.send(report.serialize(), (kind === 'video' ? target.video : target.audio) + 1, '127.0.0.1');
  }

  /**
   * The periodic keyframe requests start over from the relay's first keyframe: HLS cuts a
   * segment at the first keyframe past its length, and requests timed from the session's start
   * would make the first segment up to a request interval longer.
   */
  private keyframesFromNow(): void {
    clearInterval(this.keyframeTimer);
    this.keyframeTimer = setInterval(() => this.askKeyframe(), this.opts.keyframeEveryMs);
  }

  private askKeyframe(): void {
    if (this.videoTransceiver && this.videoSsrc !== null)
      void this.videoTransceiver.receiver.sendRtcpPLI(this.videoSsrc).catch(() => {});
  }

  private sendRemb(): void {
    const ssrc = this.videoSsrc;
    const dtls = this.videoTransceiver?.receiver.dtlsTransport;
    if (ssrc === null || !dtls) return;
    const exp = Math.max(0, Math.ceil(Math.log2(this.opts.maxBitrate + 1)) - 18);
    const remb = new ReceiverEstimatedMaxBitrate({
      senderSsrc: 1,
      mediaSsrc: 0,
      brExp: exp,
      brMantissa: Math.floor(this.opts.maxBitrate / 2 ** exp),
      ssrcNum: 1,
      ssrcFeedbacks: [ssrc],
    });
    void dtls.sendRtcp([new RtcpPayloadSpecificFeedback({ feedback: remb })]).catch(() => {});
  }

  private watch(): void {
    const now = performance.now();
    if (!this.connected && now - this.startedMs > this.opts.connectTimeoutMs) this.end('connect_timeout');
    else if (this.connected && now - this.lastMediaMs > this.opts.idleTimeoutMs) this.end('idle');
  }

  private end(why: ReceiverEnd): void {
    if (this.ended) return;
    this.ended = why;
    for (const t of [...this.timers, this.keyframeTimer]) clearInterval(t);
    this.target = null;
    this.socket.close();
    if (why !== 'closed') void this.pc.close().catch(() => {});
    for (const listener of this.endListeners.splice(0)) listener(why);
  }
}
