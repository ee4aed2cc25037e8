import { destination as fileDestination, multistream, type Level } from 'pino';
import type { RunningAppliance } from '../composition/appliance.js';
import type { Config } from '../config/config.js';
import type { LogSettings } from '../config/schema.js';
import { dataPaths } from '../config/paths.js';
import type { Secrets } from '../config/secrets.js';
import { createLogger, type Logger } from '../core/logger.js';
import { privateFile } from '../platform/system/data-dir.js';
import { startLogRotation } from '../platform/system/log-rotation.js';
import { removePidFile, writePidFile } from './pid.js';

export function urlLines(config: Config): string[] {
  const u = config.publicUrls;
  return [
    `  api      ${u.base_url}`,
    `  player   ${u.player_url}`,
    `  cdn      ${u.cdn_url}`,
    `  rtmp     ${u.rtmp_url}`,
  ];
}

/** What a foreground process of svc (the appliance, an edge) is made of. */
export interface ForegroundSpec<R extends { stop(): Promise<void> }> {
  /** Its log (pino, 0600) and the other logs it rotates (not the CDN log: its reader rotates it). */
  logFile: string;
  rotate: string[];
  logs: LogSettings;
  logLevel: string;
  pidFile: string;
  dataDir: string;
  verbose: boolean;
  progress: (line: string) => void;
  /** Builds and starts everything; loaded lazily by the caller (the composition root is most of svc). */
  start: (logger: Logger) => Promise<R>;
  /** Once started: what the operator reads. */
  started: (running: R) => void;
  /** SIGHUP: re-render nginx's config and load it. */
  reload: (running: R) => Promise<void>;
}

/**
 * A process of svc in the foreground: logs to `logFile` (and the console with --verbose), a pid
 * file while running, and on SIGINT/SIGTERM everything stopped in reverse order.
 */
export async function runUntilSignal<R extends { stop(): Promise<void> }>(
  spec: ForegroundSpec<R>,
): Promise<{ stopped_by: string }> {
  const level = spec.verbose && !['trace', 'debug'].includes(spec.logLevel) ? 'debug' : spec.logLevel;
  // Before pino makes it: it would be readable by every local user.
  privateFile(spec.logFile);
  const file = fileDestination({ dest: spec.logFile, mkdir: true, append: true, sync: true });
  const destination = spec.verbose
    ? multistream([
        { stream: file, level: level as Level },
        { stream: process.stderr, level: level as Level },
      ])
    : file;
  const logger = createLogger(level, destination);
  // Every log it writes; nginx's error log goes to its stderr, so into this log. Not the CDN log:
  // its reader rotates it (a truncation would break its position).
  const stopRotation = startLogRotation({ files: [spec.logFile, ...spec.rotate], settings: spec.logs, logger });

  // Signals that arrive while starting are kept and acted on once the start settles.
  let signal: string | null = null;
  let wake: () => void = () => {};
  const onSignal = (name: string) => {
    if (signal) {
      logger.warn({ signal: name }, 'still stopping; send SIGKILL to force');
      spec.progress(`still stopping (${name} again); send SIGKILL to force`);
      return;
    }
    signal = name;
    wake();
  };
  const onInt = () => onSignal('SIGINT');
  const onTerm = () => onSignal('SIGTERM');
  // SIGHUP: nginx's config is rendered again and loaded without dropping publishers or viewers.
  const onHup = () => {
    if (!running || signal) return;
    logger.info('SIGHUP: reloading nginx');
    spec
      .reload(running)
      .catch((err: unknown) => logger.error({ err }, 'nginx reload failed; the running config stays'));
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  // A promise nobody handled (a library's own, as postgres.js's type fetch once was) would end the
  // process and every broadcast with it: it is logged as the bug it is, and the process goes on.
  const onUnhandled = (reason: unknown) =>
    logger.error({ err: reason }, 'unhandled rejection (a bug; the process goes on)');
  process.on('unhandledRejection', onUnhandled);

  writePidFile(spec.pidFile);
  let running: R | undefined;
  try {
    logger.info({ pid: process.pid, data_dir: spec.dataDir }, 'starting');
    running = await spec.start(logger);
    spec.started(running);
    if (!signal) await new Promise<void>((resolve) => (wake = resolve));
    spec.progress(`${String(signal)}: stopping`);
    logger.info({ signal }, 'stopping');
    await running.stop();
    logger.info('stopped');
    return { stopped_by: String(signal) };
  } catch (err) {
    logger.error({ err }, 'failed to start');
    throw err;
  } finally {
    stopRotation();
    removePidFile(spec.pidFile, process.pid);
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
    process.off('unhandledRejection', onUnhandled);
  }
}

/** `svc up` in the foreground (runUntilSignal): the appliance, its URLs printed once it runs. */
export async function runForeground(opts: {
  config: Config;
  secrets: Secrets;
  verbose: boolean;
  print: (line: string) => void;
  progress: (line: string) => void;
}): Promise<{ stopped_by: string }> {
  const { config } = opts;
  const paths = dataPaths(config.dataDir);
  return runUntilSignal<RunningAppliance>({
    logFile: paths.applianceLog,
    rotate: [paths.postgresLog],
    logs: config.logs,
    logLevel: config.logLevel,
    pidFile: paths.pidFile,
    dataDir: config.dataDir,
    verbose: opts.verbose,
    progress: opts.progress,
    start: async (logger) => {
      // Loaded here, not with this module: without a manifest oclif imports every command to list
      // them (`svc up` with the rest), and the composition root is most of svc.
      const { startAppliance } = await import('../composition/appliance.js');
      const running = await startAppliance({
        config,
        secrets: opts.secrets,
        logger,
        onProgress: (line) => {
          logger.info(line);
          opts.progress(line);
        },
      });
      logger.info({ urls: config.publicUrls }, 'running');
      return running;
    },
    started: () => {
      opts.print(`svc is running (pid ${process.pid})`);
      for (const line of urlLines(config)) opts.print(line);
      opts.print(`  logs     ${paths.applianceLog}`);
      if (config.allowPrivateWebhooks)
        opts.print('Warning: allow_private_webhooks is on (webhooks may target http and private addresses).');
      opts.print('Stop with Ctrl-C or `svc down`.');
    },
    reload: (running) => running.nginx.reload(),
  });
}
