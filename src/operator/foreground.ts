import { destination as fileDestination, multistream, type Level } from 'pino';
import type { RunningAppliance } from '../composition/appliance.js';
import type { Config } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { Secrets } from '../config/secrets.js';
import { createLogger } from '../core/logger.js';
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

/**
 * `svc up` in the foreground: logs to <data>/logs/svc.log (and the console with --verbose),
 * a pid file while running, and on SIGINT/SIGTERM everything stopped in reverse order.
 */
export async function runForeground(opts: {
  config: Config;
  secrets: Secrets;
  verbose: boolean;
  print: (line: string) => void;
  progress: (line: string) => void;
}): Promise<{ stopped_by: string }> {
  const { config } = opts;
  const paths = dataPaths(config.dataDir);
  const level = opts.verbose && !['trace', 'debug'].includes(config.logLevel) ? 'debug' : config.logLevel;
  // Before pino makes it: it would be readable by every local user.
  privateFile(paths.applianceLog);
  const file = fileDestination({ dest: paths.applianceLog, mkdir: true, append: true, sync: true });
  const destination = opts.verbose
    ? multistream([
        { stream: file, level: level as Level },
        { stream: process.stderr, level: level as Level },
      ])
    : file;
  const logger = createLogger(level, destination);
  // Every log the appliance writes; nginx's error log goes to its stderr, so into svc.log. Not the
  // CDN log: its reader rotates it (a truncation would break its position).
  const stopRotation = startLogRotation({
    files: [paths.applianceLog, paths.postgresLog],
    settings: config.logs,
    logger,
  });

  // Signals that arrive while starting are kept and acted on once the start settles.
  let signal: string | null = null;
  let wake: () => void = () => {};
  const onSignal = (name: string) => {
    if (signal) {
      logger.warn({ signal: name }, 'still stopping; send SIGKILL to force');
      opts.progress(`still stopping (${name} again); send SIGKILL to force`);
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
    running.nginx
      .reload()
      .catch((err: unknown) => logger.error({ err }, 'nginx reload failed; the running config stays'));
  };
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  // A promise nobody handled (a library's own, as postgres.js's type fetch once was) would end the
  // process and every broadcast with it: it is logged as the bug it is, and the appliance goes on.
  const onUnhandled = (reason: unknown) =>
    logger.error({ err: reason }, 'unhandled rejection (a bug; the appliance goes on)');
  process.on('unhandledRejection', onUnhandled);

  writePidFile(paths.pidFile);
  let running: RunningAppliance | undefined;
  try {
    logger.info({ pid: process.pid, data_dir: config.dataDir }, 'starting');
    // Loaded here, not with this module: without a manifest oclif imports every command to list
    // them (`svc up` with the rest), and the composition root is most of svc.
    const { startAppliance } = await import('../composition/appliance.js');
    running = await startAppliance({
      config,
      secrets: opts.secrets,
      logger,
      onProgress: (line) => {
        logger.info(line);
        opts.progress(line);
      },
    });
    logger.info({ urls: config.publicUrls }, 'running');
    opts.print(`svc is running (pid ${process.pid})`);
    for (const line of urlLines(config)) opts.print(line);
    opts.print(`  logs     ${paths.applianceLog}`);
    if (config.allowPrivateWebhooks)
      opts.print('Warning: allow_private_webhooks is on (webhooks may target http and private addresses).');
    opts.print('Stop with Ctrl-C or `svc down`.');
    if (!signal) await new Promise<void>((resolve) => (wake = resolve));
    opts.progress(`${String(signal)}: stopping`);
    logger.info({ signal }, 'stopping');
    await running.stop();
    logger.info('stopped');
    return { stopped_by: String(signal) };
  } catch (err) {
    logger.error({ err }, 'failed to start');
    throw err;
  } finally {
    stopRotation();
    removePidFile(paths.pidFile, process.pid);
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
    process.off('unhandledRejection', onUnhandled);
  }
}
