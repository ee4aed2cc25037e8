import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import { originCdnUrl } from '../config/config.js';
import { systemClock } from '../core/clock.js';
import { nodeKey } from '../domains/ledger/nodes/credentials.js';
import { NodesService } from '../domains/ledger/nodes/service.js';
import { presentNodes, type PresentedNode } from '../domains/streams/node-load.js';
import { openDatabase } from './database.js';
import { joinStorage } from '../composition/storage.js';

/** The cluster's nodes, for `svc nodes ...` on the primary (the database directly, like accounts). */
export async function openNodes(
  config: Config,
  secrets: Secrets,
): Promise<{ nodes: NodesService; present: (all?: boolean) => Promise<PresentedNode[]>; close: () => Promise<void> }> {
  const sql = await openDatabase(config, secrets);
  const nodes = new NodesService({
    sql,
    clock: systemClock,
    key: nodeKey(secrets.signing_key),
    join: {
      signingKey: secrets.signing_key,
      dataKey: secrets.data_key,
      databaseUrl: config.databaseUrl,
      originUrl: originCdnUrl(config),
      storage: joinStorage(config, secrets),
    },
  });
  return {
    nodes,
    present: (all = false) => presentNodes(sql, config.capacity, systemClock.now(), all),
    close: () => sql.end({ timeout: 5 }),
  };
}
