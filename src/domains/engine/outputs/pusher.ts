import { existsSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { ProcessExit, Supervised, Supervisor } from '../../../platform/process/supervisor.js';
import { resolveHost, type HostPolicy } from '../../../platform/http/ssrf.js';
import { parseOutputUrl } from './target.js';
import { errorReason, pushArgs, redactKey, type PushInput } from './push-args.js';
import { addBytes, writeStatus, type OutputEventType, type OutputStatus, type PushRow } from './push-queries.js';

/** How long the SSRF check waits for DNS before the attempt fails. */
const LOOKUP_TIMEOUT_MS = 3000;

export interface PushDeps {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  supervisor: Supervisor;
  ffmpegPath: string;
  /** The SSRF rules of output hosts (`allow_private_outputs`), applied at every attempt. */
  policy: HostPolicy;
  /** RTMPS targets' certificates are verified against this bundle (`output_ca_file`). */
  caFile: string;
}

/** Retries of a failing push: 1 s doubling to 60 s; a push connected for a minute starts again at 1 s. */
export const FIRST_RETRY_MS = 1000;
export const MAX_RETRY_MS = 60_000;
export const STABLE_MS = 60_000;
/** A push whose input ended (the publisher left) tries again this soon if the publisher is still there. */
const INPUT_ENDED_RETRY_MS = 1000;
/** ffmpeg's last stderr lines kept for the reason of a failure. */
const ERROR_LINES = 6;

/** What the receivers were told of this output (events go once per transition). */
type Announced = 'none' | 'connected' | 'errored';

interface PendingWrite {
  status: OutputStatus;
  lastError: string | null;
  connectedAt: Date | null;
  event: OutputEventType | null;
  at: Date;
}

/**
 * One enabled output of one live stream on this node: an ffmpeg copying the publisher's stream
 * to the target, restarted with backoff when it fails, its status and bytes written to the row.
 * Status writes that fail (PostgreSQL away) stay queued, in order, and are written later: the
 * push itself never waits for the database.
 */
export class OutputPush {
  private proc: Supervised | null = null;
  private status: OutputStatus;
  private announced: Announced;
  private lastError: string | null = null;
  private connectedAt: Date | null = null;
  /** When media began to flow in this process (performance.now()), for the backoff's reset. */
  private activeSince: number | null = null;
  private backoffMs = FIRST_RETRY_MS;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Bytes this process has written (ffmpeg's `total_size`), and those not yet added to the row. */
  private processBytes = 0;
  private unwrittenBytes = 0;
  private readonly writes: PendingWrite[] = [];
  private errLines: string[] = [];
  /** Every process started (attempts), for tests and metrics. */
  attempts = 0;

  constructor(
    public row: PushRow,
    private readonly deps: PushDeps,
    /** The input of the next start; null: the publisher is not here (wait for `start`). */
    private readonly input: () => { input: PushInput; stdin?: Readable } | null,
  ) {
    // What an earlier run of the appliance announced is still true for the receivers.
    this.status = row.status;
    this.announced = row.status === 'active' ? 'connected' : row.status === 'errored' ? 'errored' : 'none';
  }

  get id(): string {
    return this.row.id;
  }

  get running(): boolean {
    return this.proc !== null;
  }

  get currentStatus(): OutputStatus {
    return this.status;
  }

  /** Whether status or bytes still wait to be written. */
  get dirty(): boolean {
    return this.writes.length > 0 || this.unwrittenBytes > 0;
  }

  private get log(): Logger {
    return this.deps.logger;
  }

  /** Starts now (a new publish session, a new output): no waiting on an earlier backoff. */
  start(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.attempt();
  }

  private retryIn(ms: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.attempt();
    }, ms);
  }

  private async attempt(): Promise<void> {
    if (this.stopped || this.proc) return;
    const source = this.input();
    if (!source) {
      // Waiting for the publisher (within its reconnect window): nothing flows.
      if (this.status === 'active') this.transition('connecting', null);
      return;
    }
    // During an outage the row stays `errored` (with its reason) until media flows again.
    if (this.status !== 'errored' && this.status !== 'connecting') this.transition('connecting', null);
    let target: { address: string; family: 4 | 6 };
    try {
      // Without the bundle ffmpeg would only say "Input/output error": say what to do.
      if (this.row.url.startsWith('rtmps:') && !existsSync(this.deps.caFile))
        throw new Error(
          `no CA bundle at ${this.deps.caFile} to verify the target's certificate: install ca-certificates or set output_ca_file`,
        );
      // Checked again at every attempt (a name may resolve elsewhere since it was saved), and the
      // address checked is what ffmpeg connects to where the protocol allows (push-args.ts).
      target = await resolveHost(parseOutputUrl(this.row.url).host, this.deps.policy, LOOKUP_TIMEOUT_MS);
    } catch (err) {
      source.stdin?.destroy();
      this.failed((err as Error).message);
      return;
    }
    if (this.stopped || this.proc) {
      source.stdin?.destroy();
      return;
    }
    const key = this.row.stream_key;
    const args = pushArgs(source.input, { url: this.row.url, key, ...target, caFile: this.deps.caFile });
    this.errLines = [];
    this.processBytes = 0;
    this.activeSince = null;
    this.attempts++;
    this.proc = this.deps.supervisor.spawn({
      name: `output ${this.row.id}`,
      file: this.deps.ffmpegPath,
      args,
      ...(source.stdin ? { stdin: source.stdin } : {}),
      logArgs: args.map((a) => redactKey(a, key)),
      logger: this.log,
      // A push without its appliance would be a second publisher at the target after the restart.
      dieWithParent: true,
      stopTimeoutMs: 3000,
      onOutput: (line) => this.onOutput(line),
      // Restarts are this class's: the SSRF check runs again before each.
      restart: () => false,
      onExit: (exit) => this.onExit(exit),
    });
  }

  /** ffmpeg's `-progress` blocks on stdout (`key=value`), its errors on stderr. */
  private onOutput(line: string): void {
    const eq = line.indexOf('=');
    const name = eq > 0 ? line.slice(0, eq) : '';
    if (name === 'total_size') {
      const total = Number(line.slice(eq + 1));
      if (!Number.isFinite(total) || total <= this.processBytes) return;
      this.unwrittenBytes += total - this.processBytes;
      this.processBytes = total;
      return;
    }
    if (name === 'progress') {
      // Bytes written to the target: media flows.
      if (this.processBytes > 0 && this.status !== 'active') this.becameActive();
      return;
    }
    if (/^[a-z_0-9]+=/.test(line)) return;
    this.errLines.push(line);
    if (this.errLines.length > ERROR_LINES) this.errLines.shift();
  }

  private becameActive(): void {
    this.activeSince = performance.now();
    const recovered = this.announced === 'errored';
    this.connectedAt = this.deps.clock.now();
    this.lastError = null;
    this.transition('active', this.announced === 'connected' ? null : 'output.connected');
    this.announced = 'connected';
    this.log.info({ output_id: this.row.id, url: this.row.url }, recovered ? 'output active again' : 'output active');
  }

  private onExit(exit: ProcessExit): void {
    const proc = this.proc;
    this.proc = null;
    if (proc) void this.deps.supervisor.release(proc);
    if (this.stopped) return;
    if (this.activeSince !== null && performance.now() - this.activeSince >= STABLE_MS) this.backoffMs = FIRST_RETRY_MS;
    // Exit 0 without an error: the input ended (the publisher left; nginx says so before its hook does).
    if (exit.code === 0 && !this.errLines.length) {
      if (this.status === 'active') this.transition('connecting', null);
      this.retryIn(INPUT_ENDED_RETRY_MS);
      return;
    }
    this.failed(errorReason(this.errLines, this.row.stream_key, exit));
  }

  /** An attempt failed: `errored` (announced once per outage), retried after the backoff. */
  private failed(reason: string): void {
    const changed = this.status !== 'errored' || reason !== this.lastError;
    if (this.announced !== 'errored')
      this.log.warn(
        { output_id: this.row.id, url: this.row.url, reason, retry_in_ms: this.backoffMs },
        'output failed; retrying with backoff',
      );
    this.lastError = reason;
    if (changed) this.transition('errored', this.announced === 'errored' ? null : 'output.errored');
    this.announced = 'errored';
    const delay = this.backoffMs;
    this.backoffMs = Math.min(MAX_RETRY_MS, this.backoffMs * 2);
    this.retryIn(delay);
  }

  /** The output stops here (stream ended, output disabled, deleted or changed): the push goes, the row says `idle`. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const proc = this.proc;
    if (proc) await this.deps.supervisor.release(proc);
    this.proc = null;
    this.lastError = null;
    this.transition('idle', this.announced === 'none' ? null : 'output.disconnected');
    if (this.announced !== 'none') this.log.info({ output_id: this.row.id, url: this.row.url }, 'output stopped');
    this.announced = 'none';
  }

  /** The appliance stops, the broadcast goes on: the push goes without a word (the next start resumes it). */
  async halt(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const proc = this.proc;
    this.proc = null;
    if (proc) await this.deps.supervisor.release(proc);
  }

  private transition(status: OutputStatus, event: OutputEventType | null): void {
    this.status = status;
    this.writes.push({
      status,
      lastError: this.lastError,
      connectedAt: status === 'active' ? this.connectedAt : null,
      event,
      at: this.deps.clock.now(),
    });
    void this.flush().catch(() => undefined);
  }

  private flushing: Promise<void> | null = null;

  /**
   * Writes what is queued, in order; rejects (and keeps the rest queued) when the database
   * fails. Bytes go with the first write, or alone when `bytes` is true.
   */
  flush(bytes = false): Promise<void> {
    this.flushing ??= this.writeQueued(bytes).finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async writeQueued(bytes: boolean): Promise<void> {
    while (this.writes.length) {
      const write = this.writes[0] as PendingWrite;
      const delta = this.unwrittenBytes;
      await writeStatus(this.deps.sql, this.row, { ...write, bytesDelta: delta });
      this.unwrittenBytes -= delta;
      this.writes.shift();
    }
    if (bytes && this.unwrittenBytes > 0) {
      const delta = this.unwrittenBytes;
      await addBytes(this.deps.sql, this.row, delta, this.deps.clock.now());
      this.unwrittenBytes -= delta;
    }
  }
}
