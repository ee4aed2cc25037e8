import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Config } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { Logger } from '../core/logger.js';
import { servedPrivately } from '../platform/system/data-dir.js';
import type { SystemUser } from '../platform/system/users.js';
import type { CertificateHealth } from '../api/root.routes.js';

/** The certificate nginx serves, kept current; null without TLS. */
export interface Certificates {
  health(): CertificateHealth | null;
  stop(): Promise<void>;
}

export async function startCertificates(opts: {
  config: Config;
  logger: Logger;
  worker: SystemUser | null;
}): Promise<Certificates | null> {
  const { config, worker } = opts;
  const tls = config.tls;
  if (!tls?.files) return null;
  const paths = dataPaths(config.dataDir);
  const tmp = `${paths.tlsCertificate}.new`;
  writeFileSync(tmp, readFileSync(tls.files.key, 'utf8') + readFileSync(tls.files.certificate, 'utf8'), { mode: 0o600 });
  servedPrivately(tmp, worker);
  renameSync(tmp, paths.tlsCertificate);
  return { health: () => null, stop: async () => {} };
}
