/**
 * Where the time of one API request goes, in CPU microseconds of the API process: a PostgreSQL
 * round trip through the driver, the two queries of an authenticated read, and whole requests
 * through Fastify's in-process injection (no sockets), each with 50 in flight.
 */
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { findAccountByApiKeyHash } from '../src/domains/ledger/accounts/queries.js';
import { createApi } from '../src/composition/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { systemClock } from '../src/core/clock.js';
import { sha256 } from '../src/core/ids.js';
import { createLogger } from '../src/core/logger.js';
import { findStream } from '../src/domains/streams/model.js';
import { cpuPerOp } from './cpu.js';
import { startBenchDatabase } from './database.js';

const OPS = 20_000;
const IN_FLIGHT = 50;

export async function benchCost(): Promise<string> {
  const db = await startBenchDatabase();
  try {
    const api = await createApi({
      sql: db.sql,
      config: resolveConfig(db.dir, {}),
      clock: systemClock,
      logger: createLogger('warn'),
      secrets: { postgres_password: '', signing_key: 'b', data_key: 'b' },
    });
    const accounts = new AccountsService(db.sql, systemClock);
    const account = await accounts.create({ name: 'Cost', trusted: true, creditUsd: '10' });
    const { key } = await accounts.createApiKey(account.id);
    const headers = { authorization: `Bearer ${key}` };
    const created = await api.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers,
      payload: { name: 'cost', metadata: { k: 'v' } },
    });
    const id = (created.json() as { id: string }).id;
    const hash = sha256(key);
    const rows: [string, () => Promise<unknown>][] = [
      ['select 1 (driver round trip)', () => db.sql`select 1`],
      ['auth query', () => findAccountByApiKeyHash(db.sql, hash)],
      ['stream query', () => findStream(db.sql, account.id, id)],
      ['inject GET / (no database)', () => api.app.inject({ method: 'GET', url: '/' })],
      ['inject GET /v1/streams/{id}', () => api.app.inject({ method: 'GET', url: `/v1/streams/${id}`, headers })],
    ];
    const lines = [`CPU of the API process per operation (${OPS} ops, ${IN_FLIGHT} in flight)`];
    for (const [name, fn] of rows) {
      const r = await cpuPerOp(fn, OPS, IN_FLIGHT);
      lines.push(
        `${name.padEnd(30)} ${r.us.toFixed(0).padStart(5)} µs   ${Math.round(r.perSecond).toString().padStart(6)} /s`,
      );
    }
    await api.app.close();
    return lines.join('\n');
  } finally {
    await db.stop();
  }
}
