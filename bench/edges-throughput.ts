/**
 * The edge bench's throughput part: one 720p-sized segment and a media playlist, fetched again and
 * again with wrk by keep-alive clients from (a) the origin's CDN port, (b) one edge from a warm
 * cache, (c) two edges at once, (d) a bare nginx serving the same file from disk, in the same run.
 * Client and servers share this machine's cores. nginx's CPU from /proc (master and workers).
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { dataPaths } from '../src/config/paths.js';
import { cdnSecret, signatureSegment } from '../src/domains/ledger/cdn/addresses.js';
import { nginxWorkerUser } from '../src/platform/nginx/nginx.js';
import { processesInGroup } from '../src/platform/process/proc.js';
import { openForTraversal } from '../src/platform/system/users.js';
import type { TestAppliance } from '../test/helpers/appliance.js';
import { onEdge, type TestEdge } from '../test/helpers/edge.js';
import { freePort } from '../test/helpers/ports.js';
import { waitFor } from '../test/helpers/publisher.js';
import { cpuOf } from './pipeline.bench.js';

/** 4 s of the 720p rendition: 2800 kb/s video (src/platform/media/ladder.ts) + 128 kb/s audio, +5% MPEG-TS overhead. */
export const SEGMENT_BYTES = Math.round(((4 * (2800 + 128) * 1000) / 8) * 1.05);
export const SEGMENT_SECONDS = 10;
export const PLAYLIST_SECONDS = 5;
/** wrk for one server; two servers get one wrk each with half of these (the same client load in all). */
export const WRK_THREADS = 2;
/** Each way of serving this many times, in turn. */
export const ROUNDS = 2;
export const WRK_CONNECTIONS = 16;
/** Not a real stream: delivery rows of unknown streams are skipped by the ledger. */
const STREAM = 'str_benchedgethroughput0';
const SEGMENT = '720p_00001.ts';
const PLAYLIST = '720p.m3u8';

const playlistText = (): string =>
  [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-TARGETDURATION:4',
    '#EXT-X-MEDIA-SEQUENCE:1',
    ...Array.from({ length: 6 }, () => `#EXTINF:4.000,\n${SEGMENT}`),
    '',
  ].join('\n');

interface Target {
  name: string;
  /** Base address: `<base><file>` is fetched. */
  bases: string[];
  /** nginx masters (their process groups are counted). */
  masters: number[];
}

export interface Served {
  requests: number;
  seconds: number;
  nginxCpu: number;
  errors: number;
}

const none = (): Served => ({ requests: 0, seconds: 0, nginxCpu: 0, errors: 0 });
const add = (into: Served, s: Served) => {
  for (const key of ['requests', 'seconds', 'nginxCpu', 'errors'] as const) into[key] += s[key];
};

async function wrk(url: string, threads: number, connections: number, seconds: number): Promise<Served> {
  const { stdout } = await execa('wrk', [`-t${threads}`, `-c${connections}`, `-d${seconds}s`, url]);
  const m = /(\d+) requests in ([\d.]+)(m?s)/.exec(stdout);
  if (!m) throw new Error(`wrk ${url}: ${stdout}`);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  const took = Number(m[2]) / (m[3] === 'ms' ? 1000 : 1);
  return { requests: Number(m[1]) - errors, seconds: took, nginxCpu: 0, errors };
}

const groupCpu = (masters: number[]) =>
  masters.flatMap((m) => processesInGroup(m)).reduce((sum, pid) => sum + cpuOf(pid, false), 0);

/** Every base of `target` loaded at once, the client threads and connections split between them. */
async function serve(target: Target, file: string, seconds: number): Promise<Served> {
  const n = target.bases.length;
  const before = groupCpu(target.masters);
  const runs = await Promise.all(
    target.bases.map((base) =>
      wrk(base + file, Math.max(1, WRK_THREADS / n), Math.max(1, WRK_CONNECTIONS / n), seconds),
    ),
  );
  return {
    requests: runs.reduce((s, r) => s + r.requests, 0),
    seconds: Math.max(...runs.map((r) => r.seconds)),
    errors: runs.reduce((s, r) => s + r.errors, 0),
    nginxCpu: groupCpu(target.masters) - before,
  };
}

/** A plain nginx (2 workers, sendfile, no log) serving `root` on a free loopback port, in its own process group. */
async function bareNginx(root: string): Promise<{ base: string; master: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-bare-'));
  openForTraversal(dir);
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `daemon off;
user ${(await nginxWorkerUser())?.name ?? 'nobody'};
worker_processes 2;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 4096; }
http {
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const child = execa('nginx', ['-c', conf, '-p', dir], { detached: true, reject: false, stdin: 'ignore' });
  const base = `http://127.0.0.1:${port}/`;
  await waitFor('the bare nginx', async () => (await fetch(base + SEGMENT)).status === 200, 10_000, 100);
  return {
    base,
    master: child.pid as number,
    async stop() {
      child.kill('SIGQUIT');
      await child;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ThroughputRow {
  name: string;
  segment: Served;
  playlist: Served;
}

/** The four ways of serving, one after the other, each warmed for a second first. */
export async function throughput(app: TestAppliance, edges: TestEdge[]): Promise<ThroughputRow[]> {
  const dir = join(dataPaths(app.dataDir).origin, STREAM);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, SEGMENT), randomBytes(SEGMENT_BYTES));
  writeFileSync(join(dir, PLAYLIST), playlistText());
  // The bare nginx's copy, readable by its workers.
  const bareRoot = mkdtempSync(join(tmpdir(), 'svc-bench-bare-root-'));
  chmodSync(bareRoot, 0o755);
  for (const f of [SEGMENT, PLAYLIST]) writeFileSync(join(bareRoot, f), readFileSync(join(dir, f)), { mode: 0o644 });
  const bare = await bareNginx(bareRoot);
  try {
    const signature = signatureSegment(
      cdnSecret(app.secrets.signing_key),
      'hls',
      STREAM,
      new Date(Date.now() + 3600_000),
    );
    const originBase = `${app.config.publicUrls.cdn_url}/${signature}/${STREAM}/`;
    const master = (dataDir: string) => Number(readFileSync(dataPaths(dataDir).nginxPid, 'utf8').trim());
    const [one, two] = edges as [TestEdge, TestEdge];
    const targets: Target[] = [
      { name: "(a) the origin's nginx (one box)", bases: [originBase], masters: [master(app.dataDir)] },
      { name: '(b) one edge, warm cache', bases: [onEdge(app, one, originBase)], masters: [master(one.dataDir)] },
      {
        name: '(c) two edges at once',
        bases: [onEdge(app, one, originBase), onEdge(app, two, originBase)],
        masters: [master(one.dataDir), master(two.dataDir)],
      },
      { name: '(d) bare nginx, file on disk', bases: [bare.base], masters: [bare.master] },
    ];
    const rows: ThroughputRow[] = targets.map((t) => ({ name: t.name, segment: none(), playlist: none() }));
    // Rounds one after the other, so that a change in the machine's other load falls on every way of serving.
    for (let round = 0; round < ROUNDS; round++)
      for (const [i, target] of targets.entries()) {
        // The origin sweeps away a stream folder a minute old that no live stream holds: not this one yet.
        utimesSync(dir, new Date(), new Date());
        // Warm: the page cache, and each edge's cache (its one origin fetch of each file).
        await serve(target, SEGMENT, 1);
        await serve(target, PLAYLIST, 1);
        const row = rows[i] as ThroughputRow;
        add(row.segment, await serve(target, SEGMENT, SEGMENT_SECONDS));
        add(row.playlist, await serve(target, PLAYLIST, PLAYLIST_SECONDS));
      }
    return rows;
  } finally {
    await bare.stop();
    rmSync(bareRoot, { recursive: true, force: true });
  }
}

export function formatThroughput(rows: ThroughputRow[]): string[] {
  const gbps = (s: Served) => (s.requests * SEGMENT_BYTES) / s.seconds / 1e9;
  const perCore = (s: Served) => (s.nginxCpu > 0 ? (s.requests * SEGMENT_BYTES) / s.nginxCpu / 1e9 : 0);
  const find = (prefix: string) => rows.find((r) => r.name.startsWith(prefix)) as ThroughputRow;
  const [origin, edge, twoEdges, bare] = ['(a)', '(b)', '(c)', '(d)'].map(find) as [
    ThroughputRow,
    ThroughputRow,
    ThroughputRow,
    ThroughputRow,
  ];
  const out = [
    '| Served by | segments/s | GB/s | nginx cores busy | GB per nginx CPU-second | playlists/s | errors |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${(r.segment.requests / r.segment.seconds).toFixed(0)} | ${gbps(r.segment).toFixed(2)} | ${(r.segment.nginxCpu / r.segment.seconds).toFixed(2)} | ${perCore(r.segment).toFixed(2)} | ${(r.playlist.requests / r.playlist.seconds).toFixed(0)} | ${r.segment.errors + r.playlist.errors} |`,
    ),
    '',
    `edge / bare nginx: segments ${(gbps(edge.segment) / gbps(bare.segment)).toFixed(2)}× (goal ≥ 0.9×), per nginx CPU-second ${(perCore(edge.segment) / perCore(bare.segment)).toFixed(2)}×; playlists ${(edge.playlist.requests / edge.playlist.seconds / (bare.playlist.requests / bare.playlist.seconds)).toFixed(2)}×`,
    `two edges / one box: ${(gbps(twoEdges.segment) / gbps(origin.segment)).toFixed(2)}× (one edge / one box ${(gbps(edge.segment) / gbps(origin.segment)).toFixed(2)}×)`,
  ];
  return out;
}
