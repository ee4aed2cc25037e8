/**
 * The API worker processes of the appliance (docs/decisions.md, The read path): one supervised
 * Node process each (restarted when it dies, killed with the appliance), each told at every start
 * what it needs over IPC, kept up to date with the appliance's in-memory readings (`node_ready`,
 * `viewers.now`), and reporting its answered requests to the appliance's metrics.
 */
import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { packageRoot } from '../core/package-root.js';
import type { Logger } from '../core/logger.js';
import type { ViewersService } from '../domains/audience/viewers/service.js';
import type { AnsweredRequest } from '../platform/http/server.js';
import type { Supervised, Supervisor } from '../platform/process/supervisor.js';
import { WORKER_SCRIPT, type FromWorker, type NodeReadings, type ToWorker } from './api-worker-protocol.js';

/** How often the readings are compared with what the workers were told; changes go out at once. */
const READINGS_MS = 100;
/**
 * A worker that runs but does not listen within this fails the appliance's start. One that exits
 * first fails it at once, so this bounds only a worker that is slow: a loaded machine (30 s was
 * not enough at a load of 17 on two cores).
 */
const START_TIMEOUT_MS = 120_000;

export interface ApiWorkersOptions {
  config: Config;
  secrets: Secrets;
  databaseUrl: string;
  ports: number[];
  supervisor: Supervisor;
  logger: Logger;
  /** What the workers show of the appliance's process. */
  readings: { nodeReady: () => boolean; viewers: ViewersService };
  /** A live stream ended through a worker. */
  ended: (streamId: string) => Promise<void>;
  /** Requests a worker answered (metrics). */
  observe: (answered: AnsweredRequest) => void;
}

/** What a Node process that ended on an uncaught error said: the error's line ("Error: listen EADDRINUSE: ..."), else its last lines. */
export function lastError(output: readonly string[]): string {
  // eslint-disable-next-line no-control-regex -- Node colours the error's fields on a terminal-like stderr
  const plain = output.map((line) => line.replace(/\u001b\[[0-9;]*m/g, '').trim());
  const error = [...plain].reverse().find((line) => /^\w*Error\b/.test(line));
  return (
    error ??
    (plain
      .filter((line) => !line.startsWith('at '))
      .slice(-3)
      .join(' | ') ||
      'it printed nothing')
  );
}

export class ApiWorkers {
  private readonly procs: Supervised[] = [];
  private timer: NodeJS.Timeout | null = null;
  private sent = '';
  /** Requests the workers reported answered, in all (tests). */
  answered = 0;

  constructor(private readonly opts: ApiWorkersOptions) {}

  /** Starts every worker; resolves once each listens. */
  async start(): Promise<void> {
    const { opts } = this;
    let starting = true;
    const listening = opts.ports.map((port) => {
      let listened: () => void = () => undefined;
      let failed: (err: Error) => void = () => undefined;
      const first = new Promise<void>((resolve, reject) => {
        listened = resolve;
        failed = reject;
      });
      const proc = opts.supervisor.spawn({
        name: `api worker :${port}`,
        file: process.execPath,
        // The data dir in the argv: `svc up` finds a worker a killed appliance left behind (leftovers.ts).
        args: [join(packageRoot, ...WORKER_SCRIPT), '--data-dir', opts.config.dataDir],
        logger: opts.logger,
        // During the start an exit fails it, in the worker's words: restarting would hide why.
        restart: () => !starting,
        onExit: (exit) => {
          if (starting)
            failed(
              new Error(
                `API worker :${port} exited (${exit.signal ?? `code ${exit.code}`}) before it listened: ${lastError(exit.output)}`,
              ),
            );
        },
        dieWithParent: true,
        onMessage: (message) => this.onMessage(proc, port, message as FromWorker, listened),
      });
      this.procs.push(proc);
      return first;
    });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(
          () =>
            reject(new Error(`API workers run but did not listen within ${START_TIMEOUT_MS / 1000} s (see the log)`)),
          START_TIMEOUT_MS,
        )),
    );
    try {
      await Promise.race([Promise.all(listening), late]);
    } finally {
      starting = false;
      clearTimeout(timer);
    }
    this.timer = setInterval(() => this.shareReadings(), READINGS_MS);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.procs.map((p) => this.opts.supervisor.release(p)));
  }

  /** The workers' pids, running ones only (tests kill them). */
  get pids(): number[] {
    return this.procs.flatMap((p) => (p.pid === null ? [] : [p.pid]));
  }

  private onMessage(proc: Supervised, port: number, message: FromWorker, listened: () => void): void {
    const { opts } = this;
    switch (message.type) {
      case 'hello':
        this.send(proc, {
          type: 'start',
          config: opts.config,
          secrets: opts.secrets,
          databaseUrl: opts.databaseUrl,
          port,
        });
        this.send(proc, { type: 'readings', ...this.readings() });
        return;
      case 'listening':
        listened();
        return;
      case 'answered':
        for (const request of message.requests) opts.observe(request);
        this.answered += message.requests.length;
        return;
      case 'ended':
        opts
          .ended(message.streamId)
          .catch((err: unknown) =>
            opts.logger.error({ err, stream_id: message.streamId }, 'ending a stream a worker ended failed'),
          );
        return;
    }
  }

  private readings(): NodeReadings {
    return {
      nodeReady: this.opts.readings.nodeReady(),
      viewers: this.opts.readings.viewers.figures(),
    };
  }

  /** Tells every worker the readings when they changed (the time of measurement aside). */
  private shareReadings(): void {
    const readings = this.readings();
    const compared = JSON.stringify(readings, (key, value: unknown) => (key === 'measured_at' ? undefined : value));
    if (compared === this.sent) return;
    this.sent = compared;
    for (const proc of this.procs) this.send(proc, { type: 'readings', ...readings });
  }

  private send(proc: Supervised, message: ToWorker): void {
    proc.send(message);
  }
}
