import { localUrlHost } from '../config/config.js';
import { DEFAULT_LOGS } from '../config/config.js';
import type { EdgeConfig, EdgeSecrets } from '../config/edge.js';
import { dataPaths } from '../config/paths.js';
import type { RunningEdge } from '../composition/edge.js';
import { startDetachedProcess } from './detach.js';
import { runUntilSignal } from './foreground.js';
import { runningPid } from './pid.js';

/** Where this machine reaches the edge's viewers' port (loopback when it listens on every address). */
export const edgeLocalUrl = (config: Pick<EdgeConfig, 'listenHost' | 'cdnPort'>): string =>
  `http://${localUrlHost({ listenHost: config.listenHost })}:${config.cdnPort}`;

/** The edge's nginx answers its health check. */
export async function edgeNginxHealthy(config: EdgeConfig, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await fetch(`${edgeLocalUrl(config)}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.text();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** `svc edge up` in the foreground: the edge (startEdge) until SIGINT/SIGTERM; logs in logs/edge.log. */
export function runEdgeForeground(opts: {
  config: EdgeConfig;
  secrets: EdgeSecrets;
  verbose: boolean;
  print: (line: string) => void;
  progress: (line: string) => void;
}): Promise<{ stopped_by: string }> {
  const { config } = opts;
  const paths = dataPaths(config.dataDir);
  return runUntilSignal<RunningEdge>({
    logFile: paths.edgeLog,
    rotate: [],
    logs: DEFAULT_LOGS,
    logLevel: config.logLevel,
    pidFile: paths.edgePidFile,
    dataDir: config.dataDir,
    verbose: opts.verbose,
    progress: opts.progress,
    start: async (logger) => {
      // Loaded here: oclif lists commands by importing them when it has no manifest.
      const { startEdge } = await import('../composition/edge.js');
      return startEdge({
        config,
        secrets: opts.secrets,
        logger,
        onProgress: (line) => {
          logger.info(line);
          opts.progress(line);
        },
      });
    },
    started: () => {
      opts.print(`svc edge ${config.name} (${config.edgeId}) is running (pid ${process.pid})`);
      opts.print(`  viewers  ${edgeLocalUrl(config)} (listening on ${config.listenHost}:${config.cdnPort})`);
      opts.print(`  origin   ${config.originCdnUrl} (API ${config.originApiUrl})`);
      opts.print(`  logs     ${paths.edgeLog}`);
      opts.print('Stop with Ctrl-C or `svc edge down`.');
    },
    reload: (running) => running.nginx.reload(),
  });
}

/** `svc edge up --detach`: returns once the edge runs (its pid file) and its nginx answers. */
export function startEdgeDetached(opts: {
  config: EdgeConfig;
  args: string[];
  progress: (line: string) => void;
  timeoutMs?: number;
}): Promise<number> {
  const { config } = opts;
  const paths = dataPaths(config.dataDir);
  return startDetachedProcess({
    command: ['edge', 'up'],
    dataDir: config.dataDir,
    logFile: paths.edgeLog,
    name: 'the edge',
    ready: async () => runningPid(paths.edgePidFile) !== null && (await edgeNginxHealthy(config, 1000)),
    waitingFor: `${edgeLocalUrl(config)}/healthz`,
    args: opts.args,
    progress: opts.progress,
    timeoutMs: opts.timeoutMs,
  });
}
