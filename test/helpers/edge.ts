import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { startEdge, type RunningEdge } from '../../src/composition/edge.js';
import { loadEdgeConfig, readEdgeFile, readEdgeSecrets, writeEdgeFiles, type EdgeFile } from '../../src/config/edge.js';
import { dataPaths } from '../../src/config/paths.js';
import { createLogger } from '../../src/core/logger.js';
import { joinOrigin } from '../../src/operator/edge-join.js';
import type { TestAppliance } from './appliance.js';
import { freePort } from './ports.js';

export interface TestEdge {
  edgeId: string;
  dataDir: string;
  /** `http://127.0.0.1:<port>`: where viewers reach it. */
  url: string;
  running: RunningEdge;
  /** The edge's access log, one object per line. */
  lines(): { time: number; path: string; status: number; bytes: number; cache: string; country: string }[];
  close(): Promise<void>;
}

/**
 * An edge joined to `app` with a token from `svc edges add` and started in this process (its own
 * data dir, port and nginx) on loopback, as `svc edge join` does; `settings` go into its edge.json
 * (shorter periods for a test, a country table).
 */
export async function joinTestEdge(
  app: TestAppliance,
  name: string,
  settings: Partial<Omit<EdgeFile, 'edge_id' | 'name' | 'origin_api_url' | 'origin_cdn_url'>> = {},
): Promise<TestEdge> {
  const added = await app.running.api.edges.add({ name, kind: 'edge' });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-edge-'));
  const port = await freePort();
  await joinOrigin({
    originApiUrl: app.config.publicUrls.base_url,
    token: added.join_token as string,
    dataDir,
    listenHost: '127.0.0.1',
    cdnPort: port,
    address: `127.0.0.1:${port}`,
  });
  writeEdgeFiles(dataDir, { ...readEdgeFile(dataDir), ...settings }, readEdgeSecrets(dataDir));
  const config = loadEdgeConfig(dataDir);
  const logger = createLogger(
    process.env.SVC_TEST_LOG_LEVEL ?? 'info',
    destination({ dest: dataPaths(dataDir).edgeLog, mkdir: true, sync: true }),
  );
  const running = await startEdge({ config, secrets: readEdgeSecrets(dataDir), logger });
  return {
    edgeId: config.edgeId,
    dataDir,
    url: `http://127.0.0.1:${port}`,
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
}

/** The same signed address on the edge instead of the origin's CDN port. */
export const onEdge = (app: TestAppliance, edge: { url: string }, url: string): string =>
  url.replace(app.config.publicUrls.cdn_url, edge.url);
