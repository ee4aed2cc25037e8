import type { Logger } from '../../core/logger.js';
import { Repeater } from '../../core/repeater.js';
import { connect, resetConnections, type Sql } from './connect.js';

export interface DatabaseMonitorOptions {
  url: string;
  logger: Logger;
  /** Between probes. */
  intervalMs?: number;
  /** A probe not answered within this counts as the database being away (a frozen server). */
  timeoutMs?: number;
}

export interface DatabaseState {
  available: boolean;
  /** Since when it is in this state (performance.now() milliseconds). */
  sinceMs: number;
  /** Why it is away: the probe's error code or `timeout`. */
  reason: string | null;
}

/**
 * Watches the database with `select 1` on a connection of its own, twice a second. When a probe
 * fails or does not answer in time, the database is away: the pools it watches have their
 * connections cut (statements waiting on a frozen server fail now, and are answered 503) and
 * refuse new ones at once until a probe answers again. It changes nothing in the database.
 */
export class DatabaseMonitor {
  private readonly probe: Sql;
  private readonly timeoutMs: number;
  private readonly watched: Sql[] = [];
  private readonly repeater: Repeater;
  private checking: Promise<boolean> | null = null;
  private current: DatabaseState = { available: true, sinceMs: performance.now(), reason: null };

  constructor(private readonly opts: DatabaseMonitorOptions) {
    this.timeoutMs = opts.timeoutMs ?? 1000;
    this.probe = connect(opts.url, { max: 1, connectTimeoutSeconds: Math.max(1, Math.ceil(this.timeoutMs / 1000)) });
    this.repeater = new Repeater(() => this.check(), opts.intervalMs ?? 500);
  }

  get available(): boolean {
    return this.current.available;
  }

  get state(): DatabaseState {
    return { ...this.current };
  }

  /** Pools whose connections are cut when the database goes away. */
  watch(sql: Sql): void {
    this.watched.push(sql);
  }

  start(): void {
    this.repeater.start();
  }

  async stop(): Promise<void> {
    await this.repeater.stop();
    await this.checking;
    await this.probe.end({ timeout: 0 });
  }

  /** One probe now; true when the database answered. */
  check(): Promise<boolean> {
    this.checking ??= this.runProbe().finally(() => (this.checking = null));
    return this.checking;
  }

  private async runProbe(): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('timeout'), this.timeoutMs)));
    const answered = this.probe`select 1`.then(
      () => null,
      (err: { code?: string; message?: string }) => err.code ?? err.message ?? 'error',
    );
    const reason = await Promise.race([answered, timedOut]);
    clearTimeout(timer);
    if (reason === 'timeout') resetConnections(this.probe);
    this.settle(reason);
    return reason === null;
  }

  private settle(reason: string | null): void {
    const available = reason === null;
    if (available === this.current.available) return;
    const awayMs = Math.round(performance.now() - this.current.sinceMs);
    this.current = { available, sinceMs: performance.now(), reason };
    if (available) {
      this.opts.logger.info({ away_ms: awayMs }, 'database answers again');
      return;
    }
    let cut = 0;
    for (const sql of this.watched) cut += resetConnections(sql);
    this.opts.logger.error(
      { reason, connections_cut: cut },
      'database is not answering: requests are answered 503 until it does',
    );
  }
}
