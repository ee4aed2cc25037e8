import { RtcpSenderInfo, RtcpSrPacket } from 'werift';

/** NTP time (RFC 3550: seconds since 1900, 32.32 fixed point) of this machine's clock. */
const NTP_EPOCH_OFFSET_S = 2_208_988_800;
const NTP_UNIT = 2 ** 32;
const NTP_MASK = (1n << 64n) - 1n;
const localNtp = (ms: number): bigint => BigInt(Math.round((ms / 1000 + NTP_EPOCH_OFFSET_S) * NTP_UNIT));

/** The signed distance between two 32-bit RTP timestamps, wrap included. */
const rtpDelta = (a: number, b: number): number => (a - b) | 0;

interface Mapping {
  ntp: bigint;
  rtp: number;
}

/** The NTP time a mapping gives an RTP timestamp of a track ticking `rate` times a second. */
const ntpAt = (m: Mapping, rtp: number, rate: number): bigint =>
  m.ntp + BigInt(Math.round((rtpDelta(rtp, m.rtp) / rate) * NTP_UNIT));

/**
 * One track's sender reports as the relay sees them. ffmpeg times each track from its first
 * sender report, and a track whose first report comes after its first packets jumps back in
 * time. A browser sends its first audio report ~2.5 s after the first packet (libwebrtc: half
 * the 5-s audio interval), so instead of waiting for it the relay gets a report made here,
 * before the first packet, from when the packets arrived; the browser's reports that follow are
 * shifted onto that made-up mapping (a constant shift: they still correct the clocks' drift).
 */
export class TrackClock {
  private last: { rtp: number; ssrc: number; arrivedMs: number } | null = null;
  private real: RtcpSrPacket | null = null;
  /** The mapping the relay was given before the browser's first report; null: none made up. */
  private made: Mapping | null = null;
  /** Added to the browser's NTP times once a mapping was made up (in NTP units). */
  private shift = 0n;

  /** `rate`: the track's RTP clock (90 kHz video, 48 kHz Opus). */
  constructor(private readonly rate: number) {}

  packet(rtp: number, ssrc: number, arrivedMs: number): void {
    this.last = { rtp, ssrc, arrivedMs };
  }

  /** A report of the browser's: as the relay must see it. */
  report(packet: RtcpSrPacket): RtcpSrPacket {
    const first = this.real === null;
    this.real = packet;
    if (first && this.made)
      this.shift = ntpAt(this.made, packet.senderInfo.rtpTimestamp, this.rate) - packet.senderInfo.ntpTimestamp;
    return this.shifted(packet);
  }

  /**
   * The report the relay gets before this track's first packet: the browser's last, or one made
   * from the arrival of the last packet, on the browser's clock as `other` (a track with a real
   * report) reads it, or on this machine's clock when no track has one yet.
   */
  firstReport(other: TrackClock | null): RtcpSrPacket | null {
    if (this.real) return this.shifted(this.real);
    if (!this.last) return null;
    const offset = other?.browserMinusLocal() ?? 0n;
    this.made = { ntp: localNtp(this.last.arrivedMs) + offset, rtp: this.last.rtp };
    return new RtcpSrPacket({
      ssrc: this.last.ssrc,
      senderInfo: new RtcpSenderInfo({ ntpTimestamp: this.made.ntp & NTP_MASK, rtpTimestamp: this.made.rtp }),
    });
  }

  /** How far the browser's report clock is ahead of this machine's, read at the last packet's arrival. */
  private browserMinusLocal(): bigint | null {
    if (!this.real || !this.last) return null;
    const mapping = { ntp: this.real.senderInfo.ntpTimestamp + this.shift, rtp: this.real.senderInfo.rtpTimestamp };
    return ntpAt(mapping, this.last.rtp, this.rate) - localNtp(this.last.arrivedMs);
  }

  private shifted(packet: RtcpSrPacket): RtcpSrPacket {
    if (this.shift === 0n) return packet;
    return new RtcpSrPacket({
      ssrc: packet.ssrc,
      reports: packet.reports,
      senderInfo: new RtcpSenderInfo({
        ...packet.senderInfo,
        ntpTimestamp: (packet.senderInfo.ntpTimestamp + this.shift) & NTP_MASK,
      }),
    });
  }
}
