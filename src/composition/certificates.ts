import type { Config, TlsConfig } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { Logger } from '../core/logger.js';
import { previousMaster } from '../platform/nginx/nginx.js';
import type { SystemUser } from '../platform/system/users.js';
import type { ChallengeShare } from '../platform/tls/acme.js';
import { startChallengeResponder, type ChallengeResponder } from '../platform/tls/challenge-responder.js';
import { TlsError } from '../platform/tls/errors.js';
import { CertificateKeeper, type TlsStatus } from '../platform/tls/keeper.js';
import type { Lookup } from '../platform/tls/preflight.js';
import { certificateHealth, type CertificateHealth } from '../platform/tls/health.js';

/** The certificate nginx serves, kept current by its keeper. */
export interface Certificates {
  status(): TlsStatus;
  health(): CertificateHealth;
  stop(): Promise<void>;
}

/** The certificate settings of an appliance or an edge (`TlsConfig`, `EdgeTlsConfig`). */
export type CertificateSettings = Pick<TlsConfig, 'names' | 'acme' | 'files' | 'warnDays' | 'checkSeconds'> & {
  ports: { http: number };
};

/** The keeper of `tlsDir`'s certificate for these settings: the appliance's and an edge's are made alike. */
export function certificateKeeper(opts: {
  tls: CertificateSettings;
  tlsDir: string;
  logger: Logger;
  worker: SystemUser | null;
  lookup?: Lookup | undefined;
  share?: ChallengeShare | undefined;
}): CertificateKeeper {
  const { tls } = opts;
  return new CertificateKeeper({
    tlsDir: opts.tlsDir,
    names: tls.names,
    source: tls.acme
      ? {
          kind: 'acme',
          directoryUrl: tls.acme.directoryUrl,
          email: tls.acme.email,
          caFile: tls.acme.caFile,
          httpPort: tls.ports.http,
          lookup: opts.lookup,
          share: opts.share,
        }
      : { kind: 'files', certificateFile: tls.files?.certificate ?? '', keyFile: tls.files?.key ?? '' },
    log: opts.logger,
    renewBeforeDays: tls.acme?.renewBeforeDays,
    retryMinSeconds: tls.acme?.retrySeconds,
    warnDays: tls.warnDays,
    checkIntervalSeconds: tls.checkSeconds,
    // nginx's workers read the file at each handshake (a renewal needs no reload).
    servedToGid: opts.worker?.gid ?? null,
  });
}

/**
 * With TLS on: a certificate to serve before nginx starts (the stored one, a new one from the
 * ACME CA, or the operator's files, checked), then kept current in the background. A TlsError
 * (the CA cannot issue, a file is wrong) stops the start with nothing started. Without TLS: null.
 */
export async function startCertificates(opts: {
  config: Config;
  logger: Logger;
  worker: SystemUser | null;
  /** How names are resolved for the preflight (tests: their test names to loopback). */
  lookup?: Lookup | undefined;
  onProgress?: ((line: string) => void) | undefined;
}): Promise<Certificates | null> {
  const { config, logger, worker } = opts;
  const tls = config.tls;
  if (!tls) return null;
  const keeper = certificateKeeper({
    tls,
    tlsDir: dataPaths(config.dataDir).tls,
    logger,
    worker,
    lookup: opts.lookup,
  });
  const responder = tls.acme ? await challengeResponder(config, tls.ports.http) : null;
  opts.onProgress?.(
    tls.acme
      ? `certificate for ${tls.names.join(', ')}: the stored one, or a new one from ${tls.acme.directoryUrl}`
      : `certificate for ${tls.names.join(', ')}: checking ${tls.files?.certificate ?? ''}`,
  );
  try {
    const status = await keeper.ensure();
    const failing =
      status.state === 'renewal_failing'
        ? `; its renewal failed (${status.last_error}), retried in the background`
        : '';
    opts.onProgress?.(`certificate valid until ${status.not_after} (${status.days_left} days)${failing}`);
    if (failing)
      logger.warn({ error: status.last_error, not_after: status.not_after }, 'tls: serving the stored certificate');
  } finally {
    await responder?.stop();
  }
  keeper.start();
  return {
    status: () => keeper.status(),
    health: () => certificateHealth(keeper.status()),
    stop: () => keeper.stop(),
  };
}

/**
 * Serves ACME's challenges on the http port until nginx does. An nginx of this data dir that is
 * still running (it is adopted or replaced later) already serves them from the same folder.
 */
async function challengeResponder(config: Config, port: number): Promise<ChallengeResponder | null> {
  try {
    return await startChallengeResponder({
      challengeDir: dataPaths(config.dataDir).acmeChallenges,
      port,
      host: config.listenHost,
    });
  } catch (err) {
    if (err instanceof TlsError && previousMaster(config.dataDir) !== null) return null;
    throw err;
  }
}
