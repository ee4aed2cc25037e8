import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { resolveConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/core/logger.js';
import { nodeCredential, nodeKey } from '../../src/domains/ledger/nodes/credentials.js';
import { IngestAccess } from '../../src/domains/ledger/nodes/ingest-access.js';
import { NginxIngest, nginxWorkerUser } from '../../src/platform/nginx/nginx.js';
import { Supervisor } from '../../src/platform/process/supervisor.js';
import { OriginStore } from '../../src/platform/storage/origin-store.js';
import { protectDataDir } from '../../src/platform/system/data-dir.js';
import { openForTraversal } from '../../src/platform/system/users.js';
import { freePort } from './ports.js';

/** The appliance's nginx on its own (no API, no database), for an ingest node's writes to `/_ingest/`. */
export interface IngestOrigin {
  dataDir: string;
  /** The CDN origin's address on loopback. */
  cdn: string;
  /** The node key nginx checks credentials with. */
  key: string;
  access: IngestAccess;
  /** A store as node `nodeId` has it (a credential made with `key`, unless another is given). */
  store(nodeId: string, key?: string): OriginStore;
  stop(): Promise<void>;
}

export async function startIngestOrigin(): Promise<IngestOrigin> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-ingest-origin-'));
  openForTraversal(dataDir);
  const [api, rtmp, cdn, player] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const config = resolveConfig(dataDir, {
    api_port: api,
    rtmp_port: rtmp,
    cdn_port: cdn,
    player_port: player,
    database_url: 'postgres://unused@127.0.0.1:1/unused',
  });
  // As the appliance does before nginx starts: the data dir's folders with their modes.
  const worker = await nginxWorkerUser();
  protectDataDir(dataDir, worker);
  const key = nodeKey('test-signing-key-for-the-ingest-origin');
  const nginx = new NginxIngest({
    config,
    secret: 'test-cdn-secret',
    viewerKey: 'test-viewer-key',
    edgeKey: 'test-edge-key',
    nodeKey: key,
    // Nothing publishes here: the hooks are never called.
    hooksUrl: `http://127.0.0.1:${api}/internal/ingest/unused`,
    api: { mainPort: api, workerPorts: [] },
    worker,
    logger: createLogger('info', destination({ dest: join(dataDir, 'logs', 'svc.log'), mkdir: true, sync: true })),
  });
  const supervisor = new Supervisor();
  await nginx.start(supervisor);
  const url = `http://127.0.0.1:${cdn}`;
  return {
    dataDir,
    cdn: url,
    key,
    access: new IngestAccess(dataDir),
    store: (nodeId, other = key) =>
      new OriginStore({ url, credential: nodeCredential(other, nodeId), timeoutMs: 5000 }),
    stop: async () => {
      await nginx.stop();
      await supervisor.stopAll();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
