/**
 * The appliance side of the pipeline and player benchmarks, in its own process so that its CPU time (node,
 * and the ladders and probes it reaps) is read from /proc apart from the publisher's. Prints one
 * JSON line when ready; SIGTERM stops it.
 */
import { destination } from 'pino';
import { join } from 'node:path';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { startAppliance } from '../src/composition/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { freePort } from '../test/helpers/ports.js';
import { startBenchDatabase } from './database.js';

const db = await startBenchDatabase();
const unlimited =
  process.env.BENCH_UNLIMITED === '1'
    ? { limits: { trusted: { pending_streams: 1_000_000, creations_per_hour: 1_000_000 } }, capacity: { cores: 1000 } }
    : {};
const config = resolveConfig(db.dir, {
  api_port: await freePort(),
  rtmp_port: await freePort(),
  cdn_port: await freePort(),
  player_port: await freePort(),
  database_url: db.url,
  ...unlimited,
});
const logger = createLogger('info', destination({ dest: join(db.dir, 'svc.log'), mkdir: true, sync: true }));
const running = await startAppliance({
  config,
  secrets: { postgres_password: 'bench', signing_key: 'bench', data_key: 'bench' },
  logger,
});
const accounts = new AccountsService(db.sql, systemClock);
const account = await accounts.create({ name: 'Bench', trusted: true, creditUsd: '1000' });
const { key } = await accounts.createApiKey(account.id);

console.log(
  JSON.stringify({
    apiUrl: config.publicUrls.base_url,
    rtmpUrl: config.publicUrls.rtmp_url,
    playerUrl: config.publicUrls.player_url,
    key,
    dataDir: db.dir,
    pid: process.pid,
  }),
);

const shutdown = async () => {
  await running.stop();
  await db.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
