/**
 * Throughput and latency of create, get and list under 50 concurrent clients, beside a bare
 * Fastify route answering constant JSON in the same run (the ratio is what matters on a shared box).
 * Each read is also measured beside its reference, run just before it: a bare route making one
 * indexed query on the same PostgreSQL for the same JSON (issue 16: the goal is 0.7× of it, p99 < 25 ms),
 * once from the API in one process and once through nginx and the API worker processes. A live
 * stream's read (which also prices what the stream used so far) is measured in the one process.
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { packageRoot } from '../src/core/package-root.js';

export interface Row {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The one-query route for the same JSON, measured in the same run. */
  reference?: Row;
}

export const CONNECTIONS = 50;
export const benchSeconds = (): number => Number(process.env.BENCH_SECONDS ?? 10);

/** One autocannon run of `CONNECTIONS` clients for `BENCH_SECONDS` (default 10). */
export async function load(name: string, opts: autocannon.Options): Promise<Row> {
  const result = await autocannon({ connections: CONNECTIONS, duration: benchSeconds(), ...opts });
  return {
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** Starts a bench server script and reads the JSON line it prints when ready. */
async function serve<T>(script: string, args: string[] = []): Promise<{ info: T; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: packageRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine: string = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited (${code})`)));
    createInterface({ input: child.stdout }).once('line', resolve);
  });
  return {
    info: JSON.parse(firstLine) as T,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

interface BenchServer {
  apiUrl: string;
  bareUrl: string;
  referenceUrl: string;
  keys: string[];
  dir: string;
  databaseUrl: string;
}

export async function benchApi(): Promise<Row[]> {
  const server = await serve<BenchServer>('bench/serve.ts');
  const { apiUrl, bareUrl, referenceUrl, keys } = server.info;
  const headers = { authorization: `Bearer ${keys[0]}`, 'content-type': 'application/json' };
  const createBody = JSON.stringify({ name: 'bench', metadata: { k: 'v' } });
  let next = 0;
  const spreadOverAccounts: autocannon.Request[] = [
    {
      method: 'POST',
      path: '/v1/streams',
      body: createBody,
      setupRequest: (req) => ({
        ...req,
        headers: { ...headers, authorization: `Bearer ${keys[next++ % keys.length]}` },
      }),
    },
  ];
  try {
    const created = await fetch(`${apiUrl}/v1/streams`, { method: 'POST', headers, body: '{"name":"target"}' });
    const { id } = (await created.json()) as { id: string };
    const createdLive = await fetch(`${apiUrl}/v1/streams`, {
      method: 'POST',
      headers,
      body: '{"name":"live target"}',
    });
    const live = ((await createdLive.json()) as { id: string }).id;
    const wentLive = await fetch(`${referenceUrl}/bench/go-live`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: live }),
    });
    // Otherwise the live row would quietly measure a pending stream.
    if (!wentLive.ok)
      throw new Error(`the bench could not make ${live} live: ${wentLive.status} ${await wentLive.text()}`);
    const rows: Row[] = [];
    rows.push(await load('bare route (constant JSON)', { url: bareUrl }));
    rows.push(
      await load('POST /v1/streams (1 account)', {
        url: `${apiUrl}/v1/streams`,
        method: 'POST',
        headers,
        body: createBody,
      }),
    );
    rows.push(await load(`POST /v1/streams (${keys.length} accts)`, { url: apiUrl, requests: spreadOverAccounts }));
    const captured = await fetch(`${referenceUrl}/reference/capture`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: keys[0], id, live }),
    });
    const reference = (await captured.json()) as { one: string; live: string; list: string };
    // Each read beside its reference, measured just before it: in one process, then through workers.
    const reads = async (baseUrl: string, label: string, withLive: boolean) => {
      const oneRef = await load('  reference: 1 query, same JSON', { url: `${referenceUrl}${reference.one}` });
      rows.push({
        ...(await load(`GET /v1/streams/{id} (${label})`, { url: `${baseUrl}/v1/streams/${id}`, headers })),
        reference: oneRef,
      });
      if (withLive) {
        const liveRef = await load('  reference: 1 query, same JSON', { url: `${referenceUrl}${reference.live}` });
        rows.push({
          ...(await load(`GET live stream (${label})`, { url: `${baseUrl}/v1/streams/${live}`, headers })),
          reference: liveRef,
        });
      }
      const listRef = await load('  reference: 1 query, same JSON', { url: `${referenceUrl}${reference.list}` });
      rows.push({
        ...(await load(`GET /v1/streams?limit=20 (${label})`, { url: `${baseUrl}/v1/streams?limit=20`, headers })),
        reference: listRef,
      });
    };
    await reads(apiUrl, '1 proc', true);
    // The same reads through nginx and the API worker processes (docs/decisions.md, The read path).
    const appliance = await serve<{ url: string; workers: number }>('bench/serve-appliance.ts', [
      server.info.dir,
      server.info.databaseUrl,
    ]);
    try {
      // Not the live stream: the whole appliance's live tick would end it (it has no publisher).
      await reads(appliance.info.url, `${appliance.info.workers} wk`, false);
    } finally {
      await appliance.stop();
    }
    return rows;
  } finally {
    await server.stop();
  }
}

export function formatApiRows(rows: Row[]): string {
  const bare = rows[0]?.rps ?? 1;
  const lines = [
    `API under ${CONNECTIONS} concurrent clients (autocannon, ${benchSeconds()} s each)`,
    `${'route'.padEnd(32)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'vs bare'.padStart(8)} ${'errors'.padStart(7)}`,
  ];
  const line = (r: Row, ratio: string) =>
    `${r.name.padEnd(32)} ${String(r.rps).padStart(8)} ${String(r.p50).padStart(7)} ${String(r.p99).padStart(7)} ${ratio.padStart(8)} ${String(r.errors + r.non2xx).padStart(7)}`;
  for (const r of rows) {
    lines.push(line(r, `${((r.rps / bare) * 100).toFixed(0)}%`));
    if (r.reference) lines.push(line(r.reference, `${((r.reference.rps / bare) * 100).toFixed(0)}%`));
  }
  lines.push('', 'Reads against their one-query reference (issue 16 goal: ratio >= 0.70, API p99 < 25 ms)');
  for (const r of rows) {
    if (!r.reference) continue;
    const ratio = (r.rps / r.reference.rps).toFixed(2);
    lines.push(
      `${r.name.padEnd(32)} ${`${r.rps} / ${r.reference.rps} req/s = ${ratio}x`.padEnd(32)} p99 ${r.p99} ms (reference ${r.reference.p99} ms)`,
    );
  }
  return lines.join('\n');
}
