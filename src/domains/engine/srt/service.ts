import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localUrlHost, type Config } from '../../../config/config.js';
import { dataPaths } from '../../../config/paths.js';
import type { Logger } from '../../../core/logger.js';
import type { Sql } from '../../../platform/db/connect.js';
import { srtListenerInput, srtPassphrase, srtRelayArgs } from '../../../platform/media/srt.js';
import { connectedTo } from '../../../platform/process/proc.js';
import type { Supervised, Supervisor } from '../../../platform/process/supervisor.js';
import { srtTargets, type SrtTarget } from './queries.js';

/** What SRT needs from the live pipeline: credentials its relays publish into nginx with. */
export interface SrtLive {
  issueSrtRelayCredential(streamId: string, keyHash: Buffer, holds: () => boolean): string;
  withdrawRelayCredential(credential: string): void;
}

export interface SrtDeps {
  sql: Sql;
  config: Config;
  logger: Logger;
  supervisor: Supervisor;
  live: SrtLive;
  /** What passphrases are derived with (srtPassphraseKey). */
  passphraseKey: Buffer;
}

/** How often the listeners are matched to the streams that can be published to. */
const SYNC_MS = 1000;

interface Listener {
  streamId: string;
  /** Port and passphrase: a new key (a new passphrase) or port means a new listener. */
  identity: string;
  inputFile: string;
  proc: Supervised | null;
  open: boolean;
  /** The one its running relay publishes with, until nginx's on_publish spends it. */
  credential: string | null;
}

/**
 * SRT ingest: a relay per stream that can be published to listens on the stream's own UDP port
 * for a publisher with its passphrase (libsrt refuses any other at the handshake), copies its
 * MPEG-TS into the appliance's own nginx over RTMP with a one-time credential, and exits when the
 * publisher leaves; the supervisor starts it listening again. In a cluster, only the stream's
 * node listens (its `srt_url` names that node). From nginx's `on_publish` on,
 * nothing is SRT-specific (docs/decisions.md, "SRT ingest (issue 29)").
 */
export class SrtService {
  private readonly listeners = new Map<string, Listener>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly deps: SrtDeps) {}

  /** Listens for the streams that can be published to now, and follows them every second. */
  async start(): Promise<void> {
    await this.sync();
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.syncing;
    await Promise.all([...this.listeners.values()].map((l) => this.close(l)));
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.syncing = this.sync().finally(() => this.schedule());
    }, SYNC_MS);
  }

  /** Starts the listeners that are missing, stops those of finished streams and replaced keys. */
  private async sync(): Promise<void> {
    let targets: SrtTarget[];
    try {
      targets = await srtTargets(this.deps.sql, this.deps.config.node.id);
    } catch (err) {
      // The database is away: the listeners keep what they have until it answers.
      this.deps.logger.debug({ err }, 'SRT listeners not checked');
      return;
    }
    const wanted = new Map(targets.map((t) => [t.id, t]));
    for (const listener of this.listeners.values()) {
      const target = wanted.get(listener.streamId);
      if (!target || this.identity(target) !== listener.identity) await this.close(listener);
    }
    for (const target of targets) if (!this.listeners.has(target.id) && !this.stopped) this.open(target);
  }

  private identity(target: SrtTarget): string {
    return `${target.srt_port}/${srtPassphrase(this.deps.passphraseKey, target.id, target.key_hash)}`;
  }

  private open(target: SrtTarget): void {
    const { config, supervisor, logger, live } = this.deps;
    const dir = join(dataPaths(config.dataDir).run, 'srt');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const listener: Listener = {
      streamId: target.id,
      identity: this.identity(target),
      inputFile: join(dir, `${target.id}.ffconcat`),
      proc: null,
      open: true,
      credential: null,
    };
    this.listeners.set(target.id, listener);
    const input = srtListenerInput({
      listenHost: config.listenHost,
      port: target.srt_port,
      passphrase: srtPassphrase(this.deps.passphraseKey, target.id, target.key_hash),
      latencyMs: config.srt.latency_ms,
    });
    writeFileSync(listener.inputFile, input, { mode: 0o600 });
    const spec = { inputFile: listener.inputFile, rtmpUrl: `rtmp://${localUrlHost(config)}:${config.ports.rtmp}/live` };
    // The credential waits in the command line until a publisher comes: it counts only while this
    // relay holds a connection to nginx, so one read from `ps` meanwhile cannot publish.
    const holds = () => listener.proc?.pid != null && connectedTo(listener.proc.pid, config.ports.rtmp);
    listener.proc = supervisor.spawn({
      name: `srt ${target.id}`,
      file: config.live.ffmpeg_path,
      args: [],
      freshArgs: () => {
        this.withdrawCredential(listener);
        listener.credential = live.issueSrtRelayCredential(target.id, target.key_hash, holds);
        return srtRelayArgs({ ...spec, playpath: `${target.id}?relay=${listener.credential}` });
      },
      logArgs: srtRelayArgs({ ...spec, playpath: `${target.id}?relay=...` }),
      logger: logger.child({ stream_id: target.id }),
      dieWithParent: true,
      stopSignal: 'SIGINT',
      stopTimeoutMs: 2000,
      // A publisher left (or nginx refused it): listen again for as long as the stream can be published to.
      restart: () => listener.open,
      onExit: () => this.withdrawCredential(listener),
    });
    logger.debug({ stream_id: target.id, port: target.srt_port }, 'SRT listener started');
  }

  private async close(listener: Listener): Promise<void> {
    if (!listener.open) return;
    listener.open = false;
    this.listeners.delete(listener.streamId);
    if (listener.proc) await this.deps.supervisor.release(listener.proc);
    this.withdrawCredential(listener);
    rmSync(listener.inputFile, { force: true });
  }

  private withdrawCredential(listener: Listener): void {
    if (listener.credential) this.deps.live.withdrawRelayCredential(listener.credential);
    listener.credential = null;
  }
}
