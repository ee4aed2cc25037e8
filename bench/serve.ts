/**
 * The server side of the API benchmark, in its own process so that the load generator does not
 * share its event loop: a throwaway managed PostgreSQL, the real API, a bare Fastify route
 * answering constant JSON (the ceiling), and the reference reads the API's reads are judged by:
 * bare Fastify routes making ONE indexed query on the same PostgreSQL for the same JSON (the
 * API's own answers, stored by `POST /reference/capture`). Prints one JSON line when ready.
 */
import Fastify from 'fastify';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { lockStreamById } from '../src/domains/streams/model.js';
import * as transitions from '../src/domains/streams/transitions.js';
import { createApi } from '../src/composition/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { freePort } from '../test/helpers/ports.js';
import { startBenchDatabase } from './database.js';

const db = await startBenchDatabase();
const { dir, sql } = db;

// Limits and capacity raised through the operator's config so that creation can be measured, not
// refused: every stream created keeps its ingest reservation (pending), and this machine's cores
// hold two 720p ladders, so all but the first creations were `503 no_capacity`.
const unlimited = { pending_streams: 1_000_000_000, creations_per_hour: 1_000_000_000 };
const apiPort = await freePort();
const config = resolveConfig(dir, {
  api_port: apiPort,
  limits: { trusted: unlimited },
  capacity: { cores: 1_000_000_000 },
});
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

// The reference reads: what a read costs with one indexed query and no auth, presentation or schema.
await sql`create table bench_reference (id text primary key, account_id text not null, seq bigint not null, body jsonb not null)`;
await sql`create index on bench_reference (account_id, seq)`;
bare.get<{ Params: { id: string } }>('/reference/streams/:id', async (request, reply) => {
  const [row] = await sql<{ body: unknown }[]>`select body from bench_reference where id = ${request.params.id}`;
  return row ? row.body : reply.code(404).send({ error: { code: 'not_found' } });
});
bare.get<{ Params: { account: string } }>('/reference/accounts/:account/streams', async (request) => {
  const rows = await sql<{ body: unknown }[]>`
    select body from bench_reference where account_id = ${request.params.account} order by seq desc limit 21`;
  return { object: 'list', data: rows.slice(0, 20).map((r) => r.body), has_more: rows.length > 20 };
});
// A stream made live as ingest does when a publisher is accepted (no publisher here): a live
// stream's read also prices what it used so far, and clients poll live streams.
bare.post<{ Body: { id: string } }>('/bench/go-live', async (request) => {
  await sql.begin(async (tx) => {
    const row = await lockStreamById(tx, request.body.id);
    if (!row) throw new Error(`no stream ${request.body.id}`);
    await transitions.goLive(tx, row, systemClock.now());
  });
  return { ok: true };
});
// Stores the API's current answers (the stream by id, a live one, the first page of the list) as the reference's rows.
bare.post<{ Body: { key: string; id: string; live: string } }>('/reference/capture', async (request) => {
  const headers = { authorization: `Bearer ${request.body.key}` };
  const get = (path: string) => fetch(`http://127.0.0.1:${apiPort}${path}`, { headers }).then((r) => r.json());
  const one = (await get(`/v1/streams/${request.body.id}`)) as { id: string };
  const live = (await get(`/v1/streams/${request.body.live}`)) as { id: string };
  const page = (await get('/v1/streams?limit=21')) as { data: { id: string }[] };
  await sql`delete from bench_reference`;
  const [acc] = await sql<{ account_id: string }[]>`select account_id from streams where id = ${one.id}`;
  const account = acc?.account_id ?? '';
  // The single read's row sits on its own account so that it never appears in the page.
  await sql`insert into bench_reference values (${'one_' + one.id}, ${'single'}, 0, ${sql.json(one as never)})`;
  await sql`insert into bench_reference values (${'one_' + live.id}, ${'single'}, 0, ${sql.json(live as never)})`;
  for (const [i, s] of page.data.entries()) {
    await sql`insert into bench_reference values (${s.id}, ${account}, ${page.data.length - i}, ${sql.json(s as never)})`;
  }
  return {
    one: `/reference/streams/one_${one.id}`,
    live: `/reference/streams/one_${live.id}`,
    list: `/reference/accounts/${account}/streams`,
  };
});
const barePort = await freePort();
await bare.listen({ host: '127.0.0.1', port: barePort });

console.log(
  JSON.stringify({
    apiUrl: `http://127.0.0.1:${apiPort}`,
    bareUrl: `http://127.0.0.1:${barePort}/bare`,
    referenceUrl: `http://127.0.0.1:${barePort}`,
    keys,
    dir,
    databaseUrl: db.url,
  }),
);

const shutdown = async () => {
  await bare.close();
  await api.app.close();
  await db.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
