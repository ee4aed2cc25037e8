import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localUrlHost, type Config } from '../../../config/config.js';
import { dataPaths } from '../../../config/paths.js';
import { ApiError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { relayArgs } from '../../../platform/media/relay.js';
import type { Supervised, Supervisor } from '../../../platform/process/supervisor.js';
import { freeRtpPorts, udpPortBound } from '../../../platform/webrtc/loopback.js';
import { WebrtcReceiver, type RelayPorts } from '../../../platform/webrtc/receiver.js';
import { offerHasH264, offerHasSimulcast, relayInputSdp } from '../../../platform/webrtc/sdp.js';
import type { Admission, RefusalReason } from '../live/admission.js';

/** What WHIP needs from the live pipeline: the RTMP path's admission rules, and ending a stream. */
export interface WhipLive {
  wouldAdmit(req: { name: string; key: string | undefined }): Promise<Admission>;
  endNow(streamId: string, reason: 'simulcast_not_supported'): Promise<boolean>;
  /** A one-time credential the relay publishes with instead of the key (every local user reads its command line). */
  issueRelayCredential(streamId: string, key: string): string;
  withdrawRelayCredential(credential: string): void;
}

export interface WhipDeps {
  config: Config;
  logger: Logger;
  supervisor: Supervisor;
  live: WhipLive;
}

/** A refusal of the admission rules, as the WHIP endpoint answers it (RFC 9725: 401 for a bad token). */
const REFUSALS: Record<RefusalReason, ApiError['code']> = {
  unknown_stream: 'not_found',
  wrong_key: 'unauthorized',
  stream_finished: 'stream_ended',
  reservation_expired: 'stream_ended',
  already_publishing: 'already_publishing',
  account_inactive: 'tenant_suspended',
  no_credit: 'insufficient_credit',
  limit_ingest_hours: 'limit_ingest_hours',
  limit_live_streams: 'limit_live_streams',
  no_capacity: 'no_capacity',
};

/** What the browser may send, by the stream's declared size (the spec advises 6 Mbit/s at most). */
const MAX_BITRATE: Record<number, number> = { 480: 1_500_000, 720: 4_000_000, 1080: 6_000_000 };

/** The relay polls for its ports this often, this many times, before media goes to it. */
const BOUND_POLL_MS = 50;
const BOUND_POLLS = 200;

interface Session {
  id: string;
  streamId: string;
  receiver: WebrtcReceiver;
  relay: Supervised | null;
  sdpFile: string;
  open: boolean;
  /** The one the running relay publishes with, until nginx's on_publish spends it. */
  credential: string | null;
}

/**
 * WHIP ingest (RFC 9725): a browser's offer is checked with the RTMP path's admission rules,
 * answered by a WebRTC receiver, and its media relayed by an ffmpeg into the appliance's own
 * nginx as an RTMP publisher with a one-time credential standing for the stream's key. From there admission, the ladder, the
 * playlists, the recording, the ingest measurements and limits, the reconnect window and the
 * events are the RTMP path's (docs/decisions.md, "WHIP").
 */
export class WhipService {
  private readonly sessions = new Map<string, Session>();
  /** Streams whose offer is being answered right now. */
  private readonly answering = new Set<string>();

  constructor(private readonly deps: WhipDeps) {}

  /** Answers an offer: the SDP answer and the session's id, or an ApiError. */
  async publish(
    streamId: string,
    key: string | undefined,
    offer: string,
  ): Promise<{ answer: string; sessionId: string; maxResolution: number }> {
    const { logger, live } = this.deps;
    const admission = await live.wouldAdmit({ name: streamId, key });
    if (!admission.admitted) {
      logger.warn(
        { stream_id: admission.streamId, reason: admission.reason },
        `WHIP publisher refused: ${admission.message}`,
      );
      throw new ApiError(
        REFUSALS[admission.reason],
        admission.message,
        admission.reason === 'no_capacity' ? { retry_after_seconds: 30 } : {},
      );
    }
    if (offerHasSimulcast(offer)) {
      // A live stream ends (the spec's state table); a pending one stays pending for a retry with one layer.
      const ended = admission.resumed && (await live.endNow(streamId, 'simulcast_not_supported'));
      logger.warn({ stream_id: streamId, ended }, 'WHIP offer with several video layers refused');
      throw new ApiError(
        'simulcast_not_supported',
        `The offer sends several video layers (simulcast); send one.${ended ? ' The stream has ended.' : ''}`,
      );
    }
    if (!offerHasH264(offer))
      throw new ApiError(
        'codec_not_supported',
        'The offer has no H.264 video (packetization-mode 1); this service needs H.264.',
      );
    if (this.publishes(streamId) || this.answering.has(streamId)) {
      throw new ApiError('already_publishing', 'a publisher is already connected to this stream');
    }
    // Claimed before the first await: two offers at once cannot both get a session.
    this.answering.add(streamId);
    try {
      return await this.answer(streamId, key as string, offer, admission.stream.max_resolution);
    } finally {
      this.answering.delete(streamId);
    }
  }

  private async answer(
    streamId: string,
    key: string,
    offer: string,
    maxResolution: number,
  ): Promise<{ answer: string; sessionId: string; maxResolution: number }> {
    const { logger } = this.deps;
    const { whip } = this.deps.config;
    const receiver = await WebrtcReceiver.answerOffer(offer, {
      iceAddresses: whip.ice_addresses,
      icePorts: [whip.udp_port_min, whip.udp_port_max],
      maxBitrate: MAX_BITRATE[maxResolution] ?? (MAX_BITRATE[720] as number),
      keyframeEveryMs: whip.keyframe_seconds * 1000,
      connectTimeoutMs: whip.connect_timeout_seconds * 1000,
      idleTimeoutMs: whip.idle_seconds * 1000,
      logger: logger.child({ stream_id: streamId }),
    });
    if (!receiver)
      throw new ApiError(
        'codec_not_supported',
        'The offer has no H.264 video (packetization-mode 1); this service needs H.264.',
      );
    const session: Session = {
      id: randomBytes(16).toString('base64url'),
      streamId,
      receiver,
      relay: null,
      sdpFile: '',
      open: true,
      credential: null,
    };
    this.sessions.set(session.id, session);
    receiver.onEnd((why) => {
      if (why !== 'closed') logger.info({ stream_id: streamId, why }, 'WHIP session ended');
      void this.close(session);
    });
    receiver.onFirstMedia = () => logger.info({ stream_id: streamId }, 'WHIP media reaches the relay');
    try {
      await this.startRelay(session, key);
    } catch (err) {
      await this.close(session);
      throw err;
    }
    logger.info({ stream_id: streamId, session: session.id.slice(0, 6) }, 'WHIP session answered');
    return { answer: receiver.answer, sessionId: session.id, maxResolution };
  }

  /** DELETE of the session's address: false when there is no such session. */
  async end(streamId: string, sessionId: string): Promise<boolean> {
    const session = this.sessions.get(sessionId);
    if (!session || session.streamId !== streamId) return false;
    await this.close(session);
    return true;
  }

  /** Whether a WHIP session of this node publishes the stream. */
  publishes(streamId: string): boolean {
    return [...this.sessions.values()].some((s) => s.streamId === streamId && s.open);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.close(s)));
  }

  private async startRelay(session: Session, key: string): Promise<void> {
    const { config, supervisor, logger, live } = this.deps;
    const [video, audio] = (await freeRtpPorts(2)) as [number, number];
    const ports: RelayPorts = { video, audio };
    const dir = join(dataPaths(config.dataDir).run, 'whip');
    mkdirSync(dir, { recursive: true });
    session.sdpFile = join(dir, `${session.id}.sdp`);
    writeFileSync(session.sdpFile, relayInputSdp(session.receiver.chosen, ports), { mode: 0o600 });
    const spec = {
      sdpFile: session.sdpFile,
      hasAudio: session.receiver.chosen.audio !== null,
      rtmpUrl: `rtmp://${localUrlHost(config)}:${config.ports.rtmp}/live`,
    };
    session.relay = supervisor.spawn({
      name: `whip ${session.streamId}`,
      file: config.live.ffmpeg_path,
      args: [],
      // Every start publishes with a credential of its own: one seen in a command line is spent or withdrawn.
      freshArgs: () => {
        this.withdrawCredential(session);
        session.credential = live.issueRelayCredential(session.streamId, key);
        return relayArgs({ ...spec, playpath: `${session.streamId}?relay=${session.credential}` });
      },
      logArgs: relayArgs({ ...spec, playpath: `${session.streamId}?relay=...` }),
      logger: logger.child({ stream_id: session.streamId }),
      dieWithParent: true,
      stopSignal: 'SIGINT',
      stopTimeoutMs: 2000,
      // Media waits (and a keyframe is asked for) until each start of the relay has its ports.
      prepare: () => {
        session.receiver.forwardTo(null);
        void this.forwardWhenBound(session, ports);
      },
      restart: () => session.open,
      onExit: () => {
        this.withdrawCredential(session);
        if (session.open) void this.judgeExit(session, key);
      },
    });
  }

  private async forwardWhenBound(session: Session, ports: RelayPorts): Promise<void> {
    const relay = session.relay;
    for (let i = 0; i < BOUND_POLLS && session.open; i++) {
      if (udpPortBound(ports.video) && (!session.receiver.chosen.audio || udpPortBound(ports.audio))) {
        session.receiver.forwardTo(ports);
        return;
      }
      await new Promise((r) => setTimeout(r, BOUND_POLL_MS));
    }
    if (session.open && session.relay === relay)
      this.deps.logger.warn({ stream_id: session.streamId }, 'the WHIP relay did not open its ports');
  }

  /**
   * The relay left nginx: when nginx refused or dropped it because the stream may no longer be
   * published (ended, key replaced, another publisher, credit), the browser's session ends too;
   * otherwise the supervisor starts the relay again.
   */
  private async judgeExit(session: Session, key: string): Promise<void> {
    try {
      const admission = await this.deps.live.wouldAdmit({ name: session.streamId, key });
      if (admission.admitted) return;
      this.deps.logger.warn(
        { stream_id: session.streamId, reason: admission.reason },
        `WHIP session ended: ${admission.message}`,
      );
      await this.close(session);
    } catch (err) {
      this.deps.logger.warn({ stream_id: session.streamId, err }, 'could not judge the WHIP relay exit');
    }
  }

  /** The browser's session and its relay end; nginx's publish_done starts the reconnect window. */
  private async close(session: Session): Promise<void> {
    if (!session.open) return;
    session.open = false;
    this.sessions.delete(session.id);
    await session.receiver.close();
    if (session.relay) await this.deps.supervisor.release(session.relay);
    this.withdrawCredential(session);
    if (session.sdpFile) rmSync(session.sdpFile, { force: true });
  }

  private withdrawCredential(session: Session): void {
    if (session.credential) this.deps.live.withdrawRelayCredential(session.credential);
    session.credential = null;
  }
}
