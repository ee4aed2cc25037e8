import { readFileSync, writeFileSync } from 'node:fs';
import type { EdgeConfig, EdgeSecrets } from '../../config/edge.js';
import { dataPaths } from '../../config/paths.js';
import type { Logger } from '../../core/logger.js';
import type { SystemUser } from '../system/users.js';
import { njsScripts } from './config.js';
import { EDGE_MODULES, EDGE_NJS_SCRIPTS, renderEdgeNginxConfig } from './edge-config.js';
import { geoipDatabase } from './nginx.js';
import { parseStubStatus, SupervisedNginx, type NginxConnections } from './supervised-nginx.js';

/**
 * An edge's nginx (templates/nginx/edge.conf.njk), supervised like the appliance's: a caching proxy
 * of the origin's CDN that checks viewers' signatures itself, and a control socket with
 * stub_status, its health probe. No nginx-rtmp here, so a reload (SIGHUP) would be harmless; a
 * master left by a killed edge is still adopted, which keeps viewers' connections.
 */
export class EdgeNginx extends SupervisedNginx {
  constructor(opts: { config: EdgeConfig; secrets: EdgeSecrets; logger: Logger; worker: SystemUser | null }) {
    const { config } = opts;
    const paths = dataPaths(config.dataDir);
    super({
      dataDir: config.dataDir,
      nginxPath: config.nginxPath,
      logger: opts.logger,
      modules: EDGE_MODULES,
      render: () =>
        renderEdgeNginxConfig({
          config,
          secrets: opts.secrets,
          geoipDatabase: geoipDatabase(),
          user: opts.worker?.name ?? null,
        }),
      // The master reads them at start (as root: only it may read them).
      prepareFiles: () => {
        for (const [from, to] of njsScripts(paths, EDGE_NJS_SCRIPTS))
          writeFileSync(to, readFileSync(from), { mode: 0o600 });
      },
      probePath: '/connections',
      settings: { ports: { cdn: config.cdnPort } },
      settingsFile: 'edge.json',
      logName: 'the edge log',
    });
  }

  /** stub_status, the health probe: connections now; a failure marks nginx down (`ready`). */
  async stubStatus(): Promise<NginxConnections | null> {
    return parseStubStatus(await this.probe());
  }
}
