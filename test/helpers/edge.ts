import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { startEdge, type RunningEdge } from '../../src/composition/edge.js';
import {
  loadEdgeConfig,
  readEdgeFile,
  readEdgeSecrets,
  writeEdgeFiles,
  type EdgeConfig,
  type EdgeFile,
  type EdgeTlsFile,
} from '../../src/config/edge.js';
import { dataPaths } from '../../src/config/paths.js';
import { createLogger } from '../../src/core/logger.js';
import { joinOrigin } from '../../src/operator/edge-join.js';
import type { Lookup } from '../../src/platform/tls/preflight.js';
import type { TestAppliance } from './appliance.js';
import { freePort } from './ports.js';

export interface TestEdge {
  edgeId: string;
  dataDir: string;
  config: EdgeConfig;
  /** `http://<listen host>:<port>`: where viewers reach it (plain http). */
  url: string;
  running: RunningEdge;
  /** The edge's access log, one object per line. */
  lines(): { time: number; path: string; status: number; bytes: number; cache: string; country: string }[];
  close(): Promise<void>;
}

/**
 * An edge joined to a test appliance with a token from `svc edges add`, as `svc edge join` does,
 * and started in this process (its own data dir, address, ports and nginx). `settings` go into its
 * edge.json (by default shorter periods for a test: log and heartbeat every second).
 */
export async function startTestEdge(
  app: TestAppliance,
  opts: {
    name: string;
    listenHost?: string;
    cdnPort?: number;
    tls?: EdgeTlsFile;
    tlsLookup?: Lookup;
    settings?: Partial<Omit<EdgeFile, 'edge_id' | 'name' | 'origin_api_url' | 'origin_cdn_url'>>;
  },
): Promise<TestEdge> {
  const added = await app.running.api.edges.add({ name: opts.name, kind: 'edge' });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-edge-'));
  const listenHost = opts.listenHost ?? '127.0.0.1';
  const port = opts.cdnPort ?? (await freePort());
  try {
    await joinOrigin({
      originApiUrl: app.config.publicUrls.base_url,
      token: added.join_token as string,
      dataDir,
      listenHost,
      cdnPort: port,
      address: `${listenHost}:${port}`,
      tls: opts.tls,
    });
    writeEdgeFiles(
      dataDir,
      { ...readEdgeFile(dataDir), log_ship_seconds: 1, heartbeat_seconds: 1, ...opts.settings },
      readEdgeSecrets(dataDir),
    );
    const config = loadEdgeConfig(dataDir);
    const logger = createLogger(
      process.env.SVC_TEST_LOG_LEVEL ?? 'info',
      destination({ dest: dataPaths(dataDir).edgeLog, mkdir: true, sync: true }),
    );
    const running = await startEdge({
      config,
      secrets: readEdgeSecrets(dataDir),
      logger,
      ...(opts.tlsLookup ? { tlsLookup: opts.tlsLookup } : {}),
    });
    return {
      edgeId: config.edgeId,
      dataDir,
      config,
      url: `http://${listenHost}:${port}`,
      running,
      lines: () =>
        readFileSync(dataPaths(dataDir).cdnLog, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      async close() {
        await running.stop();
        if (!process.env.SVC_TEST_KEEP) rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    if (!process.env.SVC_TEST_KEEP) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/** `url` (an address the origin handed out) as one edge serves it. */
export const onEdge = (app: TestAppliance, edge: { url: string }, url: string): string =>
  url.replace(app.config.publicUrls.cdn_url, edge.url);
