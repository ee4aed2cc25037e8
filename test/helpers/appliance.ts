import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { startAppliance, type RunningAppliance } from '../../src/composition/appliance.js';
import { localApiUrl, resolveConfig, type Config } from '../../src/config/config.js';
import type { ConfigFile } from '../../src/config/schema.js';
import type { Secrets } from '../../src/config/secrets.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { openForTraversal } from '../../src/platform/system/users.js';
import type { Lookup } from '../../src/platform/tls/preflight.js';
import { createTestDatabase, type TestDatabase } from './db.js';
import { freePort } from './ports.js';

export interface TestAppliance {
  running: RunningAppliance;
  config: Config;
  secrets: Secrets;
  db: TestDatabase;
  dataDir: string;
  accounts: AccountsService;
  /** An active account with credit and an API key. */
  newAccount(opts?: { trusted?: boolean; credit?: string; postpaid?: boolean }): Promise<{ id: string; key: string }>;
  /** The real HTTP API over loopback. */
  call(
    method: string,
    path: string,
    opts?: { key?: string; body?: unknown },
    // Tests read arbitrary response fields.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<{ status: number; headers: Record<string, string>; body: any; text: string }>;
  rtmpUrl(streamKey: string): string;
  /** Stops the appliance and starts it again on the same data dir and database (`svc down && svc up`). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The whole appliance as `svc up` runs it (API, real nginx with the rendered config, live
 * workers, jobs) on free loopback ports, a temp data dir and a fresh database. Windows are
 * shortened so tests stay short; the log goes to `<data dir>/logs/svc.log`.
 */
export async function startTestAppliance(
  file: ConfigFile = {},
  opts: {
    beforeStart?: (dataDir: string) => void;
    /** How the TLS preflight resolves public names (`testLookup` with Pebble). */
    tlsLookup?: Lookup;
    /** The object storage's key pair (with `storage` in the config: test/helpers/s3.ts). */
    storageKeys?: Secrets['storage'];
  } = {},
): Promise<TestAppliance> {
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-app-'));
  openForTraversal(dataDir);
  const [api, rtmp, cdn, player] = [await freePort(), await freePort(), await freePort(), await freePort()];
  // One SRT port (UDP; a number no other test of this process gets): one pending stream listens at a time.
  const srt = await freePort();
  const config = resolveConfig(dataDir, {
    api_port: api,
    rtmp_port: rtmp,
    cdn_port: cdn,
    player_port: player,
    database_url: db.url,
    capacity: { cores: 1000 },
    // The API in the appliance's own process unless a test asks for workers; SVC_TEST_API_WORKERS
    // runs a whole group through workers instead (CI does so for the API groups, see .ci/run).
    api_workers: Number(process.env.SVC_TEST_API_WORKERS ?? 0),
    srt: { port_min: srt, port_max: srt },
    ...file,
    // RTMPS's loopback relay port: one of this test's own (the default is fixed).
    ...(file.tls ? { tls: { rtmps_relay_port: await freePort(), ...file.tls } } : {}),
    live: {
      reconnect_window_seconds: 15,
      idle_publisher_seconds: 3,
      sample_seconds: 1,
      bitrate_window_seconds: 4,
      limit_grace_seconds: 4,
      ...file.live,
    },
    recordings: { check_seconds: 1, retry_seconds: 1, ...file.recordings },
  });
  const secrets: Secrets = {
    postgres_password: 'unused',
    signing_key: 'test-signing-key',
    data_key: 'test-data-key',
    ...(opts.storageKeys ? { storage: opts.storageKeys } : {}),
  };
  opts.beforeStart?.(dataDir);
  const logger = createLogger(
    process.env.SVC_TEST_LOG_LEVEL ?? 'info',
    destination({ dest: join(dataDir, 'logs', 'svc.log'), mkdir: true, sync: true }),
  );
  const start = () => startAppliance({ config, secrets, logger, clock: systemClock, tlsLookup: opts.tlsLookup });
  let running: RunningAppliance;
  try {
    running = await start();
  } catch (err) {
    // A start refused (a test of bad settings): nothing may keep the test process alive.
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
  const accounts = new AccountsService(db.sql, systemClock);
  return {
    get running() {
      return running;
    },
    async restart() {
      await running.stop();
      running = await start();
    },
    config,
    secrets,
    db,
    dataDir,
    accounts,
    async newAccount(opts = {}) {
      const account = await accounts.create({
        name: 'Test',
        trusted: opts.trusted,
        creditUsd: opts.credit ?? '50',
        postpaid: opts.postpaid,
      });
      const { key } = await accounts.createApiKey(account.id);
      return { id: account.id, key };
    },
    async call(method, path, opts = {}) {
      const headers: Record<string, string> = {};
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      if (opts.body !== undefined) headers['content-type'] = 'application/json';
      // With TLS the public name does not resolve here: the API on loopback, as the CLI reaches it.
      const res = await fetch(`${config.tls ? localApiUrl(config) : config.publicUrls.base_url}${path}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      const text = await res.text();
      let body: unknown = null;
      try {
        body = JSON.parse(text);
      } catch {
        body = null;
      }
      return { status: res.status, headers: Object.fromEntries(res.headers), body, text };
    },
    rtmpUrl: (streamKey) => `${config.publicUrls.rtmp_url}/${streamKey}`,
    async close() {
      await running.stop();
      await db.drop();
      // A still that was being taken when the appliance stopped may still land in media/thumbs (the
      // thumbnailer does not wait for its ffmpeg at stop): removal retries on ENOTEMPTY.
      if (!process.env.SVC_TEST_KEEP) rmSync(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}
