import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../config/config.js';
import { dataPaths } from '../../config/paths.js';
import type { Logger } from '../../core/logger.js';
import { shippedFile } from '../../core/resources.js';
import { lookupUser, type SystemUser } from '../system/users.js';
import {
  GEOIP_COUNTRY_V4,
  GEOIP_COUNTRY_V6,
  nginxModules,
  njsScripts,
  renderNginxConfig,
  type NginxConfigInput,
} from './config.js';
import { SupervisedNginx } from './supervised-nginx.js';

// What other parts use of nginx's machinery, where they have always found it.
export {
  controlRequest,
  orphanedWorkers,
  parseStubStatus,
  previousMaster,
  type NginxConnections,
} from './supervised-nginx.js';

/** What `poster_url` shows before a stream's first still (copied next to the stills, where workers can read it). */
const DEFAULT_POSTER = 'poster.svg';
/** nginx workers drop to this user when the appliance runs as root. */
const WORKER_USERS = ['www-data', 'nobody'];

/** The geoip country database to load: the IPv6 one (it answers IPv4 too) where installed. */
export const geoipDatabase = (): string => (existsSync(GEOIP_COUNTRY_V6) ? GEOIP_COUNTRY_V6 : GEOIP_COUNTRY_V4);

export interface NginxOptions extends Pick<
  NginxConfigInput,
  'secret' | 'viewerKey' | 'edgeKey' | 'nodeKey' | 'hooksUrl' | 'api'
> {
  config: Config;
  logger: Logger;
  /** The workers' user (nginxWorkerUser); the data dir's folders are made and protected for it before start (protectDataDir). */
  worker: SystemUser | null;
}

/** Who nginx's workers run as: an unprivileged user when the appliance is root, else null (the appliance's user). */
export async function nginxWorkerUser(): Promise<SystemUser | null> {
  if (process.getuid?.() !== 0) return null;
  for (const name of WORKER_USERS) {
    const user = await lookupUser(name);
    if (user) return user;
  }
  throw new Error(`none of the users ${WORKER_USERS.join(', ')} exists for nginx's workers; create www-data`);
}

/**
 * The appliance's nginx (SupervisedNginx): rtmp ingest, the signed CDN origin, the player site and
 * a control socket (rtmp_stat, rtmp_control, stub_status). An adopted master keeps its publishers:
 * a reload would not do, since nginx-rtmp serves a stream within one worker and the publisher
 * would stay on the old worker while new ladders reach the new one.
 */
export class NginxIngest extends SupervisedNginx {
  constructor(opts: NginxOptions) {
    const { config } = opts;
    const paths = dataPaths(config.dataDir);
    super({
      dataDir: config.dataDir,
      nginxPath: config.live.nginx_path,
      logger: opts.logger,
      modules: nginxModules(config),
      render: () =>
        renderNginxConfig({
          config,
          secret: opts.secret,
          viewerKey: opts.viewerKey,
          edgeKey: opts.edgeKey,
          nodeKey: opts.nodeKey,
          geoipDatabase: geoipDatabase(),
          hooksUrl: opts.hooksUrl,
          api: opts.api,
          user: opts.worker?.name ?? null,
        }),
      // What the master reads at start (as root: only it may read them) and what workers serve before a stream's first still.
      prepareFiles: () => {
        writeFileSync(join(paths.thumbs, DEFAULT_POSTER), readFileSync(shippedFile('nginx', DEFAULT_POSTER)), {
          mode: 0o644,
        });
        for (const [from, to] of njsScripts(paths)) writeFileSync(to, readFileSync(from), { mode: 0o600 });
      },
      probePath: '/stat',
      settings: config,
      settingsFile: 'config.json',
      logName: 'the appliance log',
    });
  }

  /** nginx-rtmp's statistics XML; also the health probe. */
  stat(): Promise<string> {
    return this.probe();
  }

  /** Disconnects the publisher of a stream (nginx-rtmp's control endpoint); false when none was connected. */
  async dropPublisher(streamId: string): Promise<boolean> {
    const out = await this.control(`/control/drop/publisher?app=live&name=${encodeURIComponent(streamId)}`);
    return out.trim() !== '' && out.trim() !== '0';
  }
}
