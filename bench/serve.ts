/**
 * The server side of the API benchmark, in its own process so that the load generator does not
 * share its event loop: a throwaway managed PostgreSQL, the real API, and a bare Fastify route
 * answering constant JSON (the ceiling the API is compared with). Prints one JSON line when ready.
 */
import Fastify from 'fastify';
import { AccountsService } from '../src/domains/accounts/service.js';
import { createApi } from '../src/appliance/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { freePort } from '../test/helpers/ports.js';
import { startBenchDatabase } from './database.js';

const db = await startBenchDatabase();
const { dir, sql } = db;

// Limits raised through the operator's config so that creation can be measured, not refused.
const unlimited = { pending_streams: 1_000_000_000, creations_per_hour: 1_000_000_000 };
const apiPort = await freePort();
const config = resolveConfig(dir, { api_port: apiPort, limits: { trusted: unlimited } });
const api = await createApi({
  sql,
  config,
  clock: systemClock,
  logger: createLogger('warn'),
  secrets: { postgres_password: 'bench', signing_key: 'bench', data_key: 'bench' },
});
await api.app.listen({ host: '127.0.0.1', port: apiPort });

// Creation serialises per account (limits are checked under the account's row lock), so the
// creation figure is measured both for one account and spread over 50 (one per client).
const accounts = new AccountsService(sql, systemClock);
const keys: string[] = [];
for (let i = 0; i < 50; i++) {
  const account = await accounts.create({ name: `Bench ${i}`, trusted: true, creditUsd: '1000' });
  keys.push((await accounts.createApiKey(account.id)).key);
}

const bare = Fastify();
bare.get('/bare', async () => ({ object: 'stream', id: 'str_00000000000000000000', status: 'pending' }));
const barePort = await freePort();
await bare.listen({ host: '127.0.0.1', port: barePort });

console.log(JSON.stringify({ apiUrl: `http://127.0.0.1:${apiPort}`, bareUrl: `http://127.0.0.1:${barePort}/bare`, keys }));

const shutdown = async () => {
  await bare.close();
  await api.app.close();
  await db.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
