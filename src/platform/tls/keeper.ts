import { systemClock, type Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { issueCertificate, keyFromFile, type ChallengeShare } from './acme.js';
import { checkCertificateFiles, inspectCertificate, type CertificateFacts } from './certificate.js';
import { reason, TlsError } from './errors.js';
import { preflight, type Lookup } from './preflight.js';
import { readIfPresent, tlsFiles, writeAtomically, type TlsFiles } from './store.js';

export type TlsState = 'valid' | 'expiring' | 'renewal_failing' | 'expired';
export type TlsSource = 'acme' | 'files';

/** What `svc status`, metrics and the dashboard show; the same shape in `state.json`. */
export interface TlsStatus {
  source: TlsSource;
  names: string[];
  not_before: string;
  not_after: string;
  /** One decimal; negative once expired. */
  days_left: number;
  state: TlsState;
  last_renewal_at: string | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

export interface AcmeSource {
  kind: 'acme';
  directoryUrl: string;
  email: string | null;
  caFile: string | null;
  /** Where the CA fetches http-01 tokens; 80 with a public CA. */
  httpPort: number;
  lookup?: Lookup;
  /** See `preflight`: off where this machine cannot reach its own public address. */
  selfProbe?: boolean;
  /** Where tokens are put too (edges sharing a name): see `ChallengeShare`. */
  share?: ChallengeShare | undefined;
}

/** The operator's own certificate: checked and copied, never renewed. */
export interface FilesSource {
  kind: 'files';
  certificateFile: string;
  keyFile: string;
}

export interface KeeperOptions {
  tlsDir: string;
  /** Every name served; with ACME, the first is the common name. */
  names: readonly string[];
  source: AcmeSource | FilesSource;
  log: Logger;
  clock?: Clock;
  renewBeforeDays?: number;
  warnDays?: number;
  checkIntervalSeconds?: number;
  retryMinSeconds?: number;
  retryMaxSeconds?: number;
  /** After each renewal by the timer (not the first issuance of `ensure`): reload nginx, log, notify. */
  onRenewed?: (status: TlsStatus) => void;
  /**
   * The group of nginx's workers when they read the certificate at each handshake (nginx runs as
   * root with another worker user): the file is then 0640 to that group, else 0600.
   */
  servedToGid?: number | null;
  /** In [0, 1): the retries' jitter. */
  random?: () => number;
}

const DAY = 86_400_000;
/** setTimeout's largest delay. */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

/** What state.json holds: the status, and what is needed to tell the state again later. */
interface StoredState extends TlsStatus {
  directory_url: string | null;
  warn_seconds: number;
}

/**
 * Keeps the certificate nginx serves (`tlsFiles(tlsDir).certificate`): `ensure()` once at start
 * (throws a TlsError when there is nothing to serve), then `start()` renews it in the background
 * (ACME) or watches its expiry (operator files), and `stop()`.
 */
export class CertificateKeeper {
  readonly files: TlsFiles;
  private readonly log: Logger;
  private readonly clock: Clock;
  private current: CertificateFacts | null = null;
  private lastRenewalAt: Date | null = null;
  private lastError: string | null = null;
  private nextAttemptAt: Date | null = null;
  private failures = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private started = false;

  constructor(private readonly options: KeeperOptions) {
    if (!options.names.length) throw new TlsError('no names to certify: give at least one domain');
    this.files = tlsFiles(options.tlsDir);
    this.log = options.log.child({ domain: 'tls' });
    this.clock = options.clock ?? systemClock;
  }

  /**
   * A certificate to serve, before nginx starts. ACME: the stored one if it is valid, covers the
   * names, came from this directory and is not due; otherwise a new one (the challenge folder must
   * be served on the http port: `startChallengeResponder` before nginx runs). An order that fails
   * while the stored certificate is still valid keeps it (`renewal_failing`, a retry scheduled);
   * with nothing valid stored, the TlsError is thrown. Files: the operator's, checked and copied.
   */
  async ensure(): Promise<TlsStatus> {
    const { source } = this.options;
    if (source.kind === 'files') {
      const checked = await checkCertificateFiles({ ...source, names: this.options.names, now: this.clock.now() });
      await this.serve(checked.keyPem + checked.chainPem);
      this.current = checked;
      await this.persist();
      return this.status();
    }
    const prior = await readStoredState(this.files.state);
    const stored = await this.storedCertificate();
    this.lastRenewalAt = prior?.last_renewal_at ? new Date(prior.last_renewal_at) : null;
    const fromHere = prior?.source === 'acme' && prior.directory_url === source.directoryUrl;
    if (stored && fromHere && !this.due(stored)) {
      this.current = stored;
      this.log.info({ not_after: stored.notAfter }, 'tls: the stored certificate is used');
    } else {
      try {
        await this.renew(source);
      } catch (error) {
        if (!stored) throw error;
        this.current = stored;
        this.failed(error);
      }
    }
    await this.persist();
    return this.status();
  }

  /** Checks every `checkIntervalSeconds` (sooner when a renewal or a retry is due). Call after `ensure()`. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  status(): TlsStatus {
    if (!this.current) throw new Error('CertificateKeeper.status() before ensure()');
    return statusOf(this.stored(), this.clock.now());
  }

  private schedule(): void {
    if (!this.started) return;
    const delay = Math.min(Math.max(0, this.nextCheckAt() - this.clock.now().getTime()), LONGEST_TIMER_MS);
    this.timer = setTimeout(() => {
      this.running = this.check()
        .catch((error: unknown) => this.log.error({ err: error }, 'tls: the check failed'))
        .finally(() => {
          this.running = null;
          this.schedule();
        });
    }, delay);
  }

  private nextCheckAt(): number {
    const interval = this.clock.now().getTime() + (this.options.checkIntervalSeconds ?? 3600) * 1000;
    if (this.options.source.kind === 'files' || !this.current) return interval;
    const due = this.nextAttemptAt?.getTime() ?? this.current.notAfter.getTime() - this.renewBeforeMs(this.current);
    return Math.min(interval, due);
  }

  private async check(): Promise<void> {
    const { source } = this.options;
    if (source.kind === 'files') {
      const before = this.status().state;
      this.current = inspectCertificate((await readIfPresent(this.files.certificate)) ?? '', this.files.certificate);
      const now = this.status();
      if (now.state === 'expired') this.log.error({ not_after: now.not_after }, 'tls: the certificate has expired');
      else if (now.state === 'expiring')
        this.log.warn({ days_left: now.days_left }, 'tls: the certificate expires soon');
      if (now.state !== before) await this.persist();
      return;
    }
    const now = this.clock.now();
    if (this.nextAttemptAt ? now < this.nextAttemptAt : this.current && !this.due(this.current)) return;
    try {
      await this.renew(source);
    } catch (error) {
      this.failed(error);
      await this.persist();
      return;
    }
    await this.persist();
    const status = this.status();
    this.log.info({ not_after: status.not_after }, 'tls: the certificate was renewed');
    try {
      this.options.onRenewed?.(status);
    } catch (error) {
      this.log.error({ err: error }, 'tls: onRenewed failed');
    }
  }

  private async renew(source: AcmeSource): Promise<void> {
    const started = performance.now();
    const domains = this.options.names;
    await preflight({
      domains,
      challengeDir: this.files.challengeDir,
      httpPort: source.httpPort,
      lookup: source.lookup,
      selfProbe: source.selfProbe,
      share: source.share,
    });
    const keyPem = await keyFromFile(this.files.certificateKey);
    const chainPem = await issueCertificate({
      ...source,
      accountKeyFile: this.files.accountKey,
      domains,
      certificateKeyPem: keyPem,
      challengeDir: this.files.challengeDir,
      log: this.log,
    });
    const facts = inspectCertificate(chainPem, `the certificate from ${source.directoryUrl}`);
    // Key and chain in one file replaced by one rename: no reader pairs this chain with another key.
    await this.serve(keyPem + chainPem);
    this.current = facts;
    this.lastRenewalAt = this.clock.now();
    this.lastError = null;
    this.nextAttemptAt = null;
    this.failures = 0;
    this.log.info({ names: facts.names, ms: Math.round(performance.now() - started) }, 'tls: certificate issued');
  }

  private serve(pem: string): Promise<void> {
    const gid = this.options.servedToGid ?? undefined;
    return writeAtomically(this.files.certificate, pem, gid === undefined ? 0o600 : 0o640, gid);
  }

  /** Keeps serving what is there and schedules a retry: half to all of min·2^(n−1), at most max. */
  private failed(error: unknown): void {
    this.failures += 1;
    this.lastError = reason(error);
    const min = (this.options.retryMinSeconds ?? 60) * 1000;
    const max = (this.options.retryMaxSeconds ?? 21_600) * 1000;
    const ceiling = Math.min(max, min * 2 ** (this.failures - 1));
    const delay = ceiling / 2 + ((this.options.random ?? Math.random)() * ceiling) / 2;
    this.nextAttemptAt = new Date(this.clock.now().getTime() + delay);
    this.log.warn(
      { err: this.lastError, failures: this.failures, next_attempt_at: this.nextAttemptAt },
      'tls: renewal failed; the current certificate is kept',
    );
  }

  /** The stored certificate if it can be served for the names now, else null (why is logged). */
  private async storedCertificate(): Promise<CertificateFacts | null> {
    const file = this.files.certificate;
    if ((await readIfPresent(file)) === null) return null;
    try {
      return await checkCertificateFiles({
        certificateFile: file,
        keyFile: file,
        names: this.options.names,
        now: this.clock.now(),
      });
    } catch (error) {
      this.log.info({ reason: reason(error) }, 'tls: the stored certificate is not used');
      return null;
    }
  }

  /**
   * Inside the renewal window: `renewBeforeDays` before expiry, but never more than a third of the
   * lifetime, so that a short certificate (6 days, or Pebble's minutes) is not due from its first
   * second on.
   */
  private due(facts: CertificateFacts): boolean {
    return facts.notAfter.getTime() - this.clock.now().getTime() < this.renewBeforeMs(facts);
  }

  private renewBeforeMs(facts: CertificateFacts): number {
    return Math.min((this.options.renewBeforeDays ?? 30) * DAY, lifetimeMs(facts) / 3);
  }

  private stored(): StoredState {
    const facts = this.current as CertificateFacts;
    const { source } = this.options;
    return {
      source: source.kind,
      names: facts.names,
      not_before: facts.notBefore.toISOString(),
      not_after: facts.notAfter.toISOString(),
      days_left: 0,
      state: 'valid',
      last_renewal_at: this.lastRenewalAt?.toISOString() ?? null,
      last_error: this.lastError,
      next_attempt_at: this.nextAttemptAt?.toISOString() ?? null,
      directory_url: source.kind === 'acme' ? source.directoryUrl : null,
      // Half the renewal window for short certificates: expiring means renewals have failed for a while.
      warn_seconds: Math.min((this.options.warnDays ?? 14) * DAY, lifetimeMs(facts) / 6) / 1000,
    };
  }

  private async persist(): Promise<void> {
    const stored = this.stored();
    await writeAtomically(
      this.files.state,
      JSON.stringify({ ...stored, ...statusOf(stored, this.clock.now()) }, null, 2) + '\n',
      0o644,
    );
  }
}

const lifetimeMs = (facts: CertificateFacts) => facts.notAfter.getTime() - facts.notBefore.getTime();

/** The status as of `now`: days left and state are told again from the stored dates. */
function statusOf(stored: StoredState, now: Date): TlsStatus {
  const left = new Date(stored.not_after).getTime() - now.getTime();
  const state: TlsState =
    left <= 0
      ? 'expired'
      : stored.last_error !== null
        ? 'renewal_failing'
        : left < stored.warn_seconds * 1000
          ? 'expiring'
          : 'valid';
  return {
    source: stored.source,
    names: stored.names,
    not_before: stored.not_before,
    not_after: stored.not_after,
    days_left: Math.round((left / DAY) * 10) / 10,
    state,
    last_renewal_at: stored.last_renewal_at,
    last_error: stored.last_error,
    next_attempt_at: stored.next_attempt_at,
  };
}

async function readStoredState(file: string): Promise<StoredState | null> {
  const text = await readIfPresent(file);
  if (!text) return null;
  try {
    return JSON.parse(text) as StoredState;
  } catch {
    return null;
  }
}

/**
 * The keeper's status as another process (`svc status`) reads it from `<tlsDir>/state.json`,
 * days left and state told as of now; null before the first certificate.
 */
export async function readTlsState(tlsDir: string, clock: Clock = systemClock): Promise<TlsStatus | null> {
  const stored = await readStoredState(tlsFiles(tlsDir).state);
  return stored ? statusOf(stored, clock.now()) : null;
}
