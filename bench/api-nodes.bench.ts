/**
 * What sharing state between API nodes through PostgreSQL costs (docs/decisions.md, "API nodes:
 * one answer from any node"): a rate-limit hit counted in `rate_windows` (one upsert), the
 * refusal of a key known to be over (no query), an unknown-id embed read and a chat reaction
 * through Fastify's injection (no sockets), and one node's exchange of its viewer figures for
 * 1,000 streams. CPU of this process per operation (the database's own work is not counted) and
 * the rate reached, 50 in flight.
 */
import { createApi } from '../src/composition/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import type { CountedFigures } from '../src/domains/audience/viewers/mirror.js';
import { NodeFigures } from '../src/domains/audience/viewers/nodes.js';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { SharedWindows } from '../src/platform/db/shared-windows.js';
import { cpuPerOp } from './cpu.js';
import { startBenchDatabase } from './database.js';

const OPS = 5000;
const STREAMS = 1000;

export async function benchApiNodes(): Promise<string> {
  const db = await startBenchDatabase();
  try {
    const now = () => Date.now();
    const windows = new SharedWindows({ sql: db.sql, scope: 'bench', windowSeconds: 60, limit: 1_000_000, now });
    const over = new SharedWindows({ sql: db.sql, scope: 'bench-over', windowSeconds: 60, limit: 1, now });
    await over.hit('crowd');
    let n = 0;
    const api = await createApi({
      sql: db.sql,
      // Limits out of the way: every request does the whole work, none is refused early.
      config: resolveConfig(db.dir, { chat: { reactions_per_window: 10_000, reactions_per_second: 100_000 } }),
      clock: systemClock,
      logger: createLogger('warn'),
      secrets: { postgres_password: '', signing_key: 'b', data_key: 'b' },
    });
    const accounts = new AccountsService(db.sql, systemClock);
    const account = await accounts.create({ name: 'Nodes', trusted: true, creditUsd: '10' });
    const { key } = await accounts.createApiKey(account.id);
    const created = await api.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: { authorization: `Bearer ${key}` },
    });
    const id = (created.json() as { id: string }).id;
    const rows: [string, () => Promise<unknown>][] = [
      ['rate_windows hit, new key', () => windows.hit(`key-${n++}`)],
      ['rate_windows hit, same key', () => windows.hit('one')],
      ['known over: refused locally', async () => over.blocked('crowd')],
      // For comparison: the read that costs no rate-limit query (the stream cached a second).
      ['GET embed, known id', () => api.app.inject({ method: 'GET', url: `/v1/embed/${id}` })],
      [
        'GET embed, unknown id (404)',
        () =>
          api.app.inject({
            method: 'GET',
            url: `/v1/embed/str_unknown${n++}`,
            // Every address once: none reaches the limit.
            remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
          }),
      ],
      [
        'POST chat reaction',
        () =>
          api.app.inject({
            method: 'POST',
            url: `/v1/embed/${id}/chat/reactions`,
            payload: { emoji: '👍', client_id: `bench-client-${n++ % 1000}` },
          }),
      ],
    ];
    const lines = [`API nodes: CPU of the API process per operation (${OPS} operations, 50 in flight)`];
    for (const [name, fn] of rows) {
      const r = await cpuPerOp(fn, OPS);
      lines.push(
        `${name.padEnd(30)} ${r.us.toFixed(1).padStart(7)} µs   ${Math.round(r.perSecond).toString().padStart(8)} /s`,
      );
    }

    const figures = new NodeFigures(db.sql, systemClock);
    const measured = new Date().toISOString();
    const mine: CountedFigures = { now: {}, pendingWatched: {} };
    for (let i = 0; i < STREAMS; i++) {
      mine.now[`str_bench${i}`] = { watching: i, waiting: 1, buffering_pct: 0, measured_at: measured, exact: true };
      mine.pendingWatched[`str_bench${i}`] = i * 5;
    }
    const other = new NodeFigures(db.sql, systemClock);
    await other.exchange(mine);
    const rounds = 20;
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < rounds; i++) await figures.exchange(mine);
    const used = process.cpuUsage(cpu);
    lines.push(
      `viewer figures exchange, ${STREAMS} streams each way: ${((performance.now() - t0) / rounds).toFixed(1)} ms, ` +
        `${((used.user + used.system) / rounds / 1000).toFixed(1)} ms CPU (once a second per node)`,
    );
    await api.app.close();
    return lines.join('\n');
  } finally {
    await db.stop();
  }
}
