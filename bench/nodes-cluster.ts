/**
 * A primary and two ingest nodes on one PostgreSQL, each in its own network namespace
 * (test/helpers/cluster.ts), set up as test/cluster/ingest-nodes.test.ts does it, for
 * `npm run bench -- nodes`: the PostgreSQL is the bench's own (so its CPU is the run's alone), and
 * each ingest node runs pinned to one core (`taskset` on `svc up`: its nginx and ladders inherit
 * it). The primary and PostgreSQL are left unpinned.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../src/core/clock.js';
import { dataPaths } from '../src/config/paths.js';
import { packageRoot } from '../src/core/package-root.js';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { commandLine } from '../src/platform/process/proc.js';
import { makeDataDir, ok, svc } from '../test/helpers/cli.js';
import {
  callApi,
  startTcpBalancer,
  startTopology,
  type ClusterNode,
  type TcpBalancer,
  type Topology,
} from '../test/helpers/cluster.js';
import { freePort } from '../test/helpers/ports.js';
import { waitFor } from '../test/helpers/publisher.js';
import { startBenchDatabase } from './database.js';
import { cpuOf } from './pipeline.bench.js';

export const API_PORT = 8080;
export const RTMP_PORT = 1935;

/**
 * Every node's settings: capacity far above the cores, so placement never refuses before the CPU
 * is full, and a trusted account's live streams at once (10 by default) above what two nodes take.
 */
export const LIVE_AT_ONCE = 30;
const NODE_SETTINGS = {
  capacity: { cores: 64, reserved_cores: 0 },
  limits: { trusted: { live_at_once: LIVE_AT_ONCE, pending_streams: LIVE_AT_ONCE } },
  live: { idle_publisher_seconds: 3 },
};

export interface NodesCluster {
  topology: Topology;
  primary: ClusterNode;
  /** ingest1 pinned to core 0, ingest2 to core 1. */
  ingest: ClusterNode[];
  primaryDir: string;
  sql: Awaited<ReturnType<typeof startBenchDatabase>>['sql'];
  /** The bench PostgreSQL's postmaster: its processes are it and its children. */
  postmasterPid: number;
  /** HAProxy over the two ingest nodes' RTMP ports: the stable ingest name. */
  stableRtmp: string;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** A new stream (`body` as `POST /v1/streams` takes it); throws unless 201. */
  createStream(body: unknown): Promise<{ id: string; stream_key: string; rtmp_url: string }>;
  /** Once the stream is live and its master names one: the first media playlist `pick` accepts, at the origin. */
  mediaPlaylist(streamId: string, pick: (uri: string) => boolean): Promise<URL>;
  /** The name of the node a stream is reserved on. */
  nodeOf(streamId: string): Promise<string | undefined>;
  /** `svc nodes drain|activate` on the primary. */
  setStatus(nodeName: string, action: 'drain' | 'activate'): Promise<void>;
  /** Node names as the nodes table has them (the primary's is its host name). */
  nodeNames(): Promise<string[]>;
  /** A node's appliance log (its warnings say when a ladder falls behind). */
  logOf(nodeName: string): string;
  /** Starts a node killed with kill -9 again: its database relay, then `svc up`, pinned as before. */
  restart(node: ClusterNode): Promise<void>;
  stop(): Promise<void>;
}

const CORE_OF: Record<string, number> = { ingest1: 0, ingest2: 1 };

const mergeJson = (file: string, patch: Record<string, unknown>) =>
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), ...patch }, null, 2));

/** `svc ...` inside the node's namespace, on its one core when it has one. */
const svcOn = (node: ClusterNode, args: string[], timeoutMs = 120_000) => {
  const core = CORE_OF[node.name];
  const pin = core === undefined ? [] : ['taskset', '-c', String(core)];
  return svc(args, { via: ['ip', 'netns', 'exec', node.namespace, ...pin], timeoutMs });
};

/** Every process in the node's namespace onto its core (the database relay started before `svc up`). */
function pinAll(node: ClusterNode): void {
  const core = CORE_OF[node.name];
  if (core === undefined) return;
  for (const pid of node.pids()) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
    } catch {
      // Ended meanwhile.
    }
  }
}

export async function startNodesCluster(): Promise<NodesCluster> {
  const db = await startBenchDatabase();
  const topology = await startTopology({ nodes: ['primary', 'ingest1', 'ingest2'] });
  const primary = topology.node('primary');
  const ingest = [topology.node('ingest1'), topology.node('ingest2')];
  const dirs = [makeDataDir()];
  const primaryDir = dirs[0]!.dir;
  const relays = new Map<string, string[]>();
  let haproxy: TcpBalancer | null = null;
  const sql = db.sql;

  const stop = async () => {
    await haproxy?.stop();
    await svc(['down', '--data-dir', primaryDir], { via: ['ip', 'netns', 'exec', primary.namespace] });
    await topology.stop();
    await db.stop();
    for (const d of dirs) d.remove();
  };

  try {
    const nodeDb = await primary.databaseUrl(db.url);
    ok(
      await primary.svc(
        ['init', '--no-install', '--data-dir', primaryDir, '--host', primary.address, '--database-url', nodeDb],
        { timeoutMs: 60_000 },
      ),
    );
    mergeJson(join(primaryDir, 'config.json'), NODE_SETTINGS);
    ok(await primary.svc(['up', '--detach', '--data-dir', primaryDir], { timeoutMs: 120_000 }));
    const accounts = new AccountsService(sql, systemClock);
    const account = await accounts.create({ name: 'Nodes bench', creditUsd: '1000', trusted: true });
    const key = (await accounts.createApiKey(account.id)).key;

    for (const node of ingest) {
      const added = ok(await primary.svc(['nodes', 'add', '--name', node.name, '--json', '--data-dir', primaryDir]));
      const token = (JSON.parse(added.stdout) as { join_token: string }).join_token;
      const dir = makeDataDir();
      dirs.push(dir);
      const url = await node.databaseUrl(db.url);
      // The relay's argv, to start it again after a kill -9 took it with the node.
      const relay = node.pids().find((pid) => commandLine(pid)?.some((a) => a.includes('socket-relay')));
      relays.set(node.name, relay === undefined ? [] : (commandLine(relay) ?? []));
      ok(
        await node.svc(
          [
            'node',
            'join',
            primary.url(API_PORT),
            '--token',
            token,
            '--data-dir',
            dir.dir,
            '--host',
            node.address,
          ].concat(['--database-url', url, '--no-install']),
          { timeoutMs: 60_000 },
        ),
      );
      mergeJson(join(dir.dir, 'config.json'), NODE_SETTINGS);
      pinAll(node);
      ok(await svcOn(node, ['up', '--detach', '--data-dir', dir.dir]));
    }

    const port = await freePort();
    haproxy = startTcpBalancer(`${topology.rootAddress}:${port}`, ingest, RTMP_PORT);

    const nodeDirOf = (name: string) => dirs[ingest.findIndex((n) => n.name === name) + 1]!.dir;
    const cluster: NodesCluster = {
      topology,
      primary,
      ingest,
      primaryDir,
      sql,
      postmasterPid: Number(readFileSync(join(db.dir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]),
      stableRtmp: `rtmp://${topology.rootAddress}:${port}/live`,
      api: (method, path, body) => callApi(primary.url(API_PORT, path), key, method, body),
      async createStream(body) {
        const made = await cluster.api('POST', '/v1/streams', body);
        if (made.status !== 201) throw new Error(`stream not made: ${made.status} ${JSON.stringify(made.body)}`);
        return made.body;
      },
      async mediaPlaylist(id, pick) {
        const playback = await waitFor(
          `${id} live`,
          async () => {
            const got = await cluster.api('GET', `/v1/streams/${id}`);
            return got.body.status === 'live' && (got.body.playback_url as string | null);
          },
          60_000,
        );
        // The master appears with the first segments: asked again until it names the playlist.
        return waitFor(
          `${id}'s media playlist`,
          async () => {
            const res = await fetch(playback, { signal: AbortSignal.timeout(5000) });
            const line = (await res.text()).split('\n').find((l) => l && !l.startsWith('#') && pick(l));
            return res.status === 200 && line ? new URL(line, playback) : null;
          },
          60_000,
        );
      },
      async nodeOf(streamId) {
        const rows = await sql<{ name: string }[]>`
          select n.name from streams s join nodes n on n.id = s.node_id where s.id = ${streamId}`;
        return rows[0]?.name;
      },
      async setStatus(nodeName, action) {
        ok(await primary.svc(['nodes', action, nodeName, '--data-dir', primaryDir]));
      },
      async nodeNames() {
        return (await sql<{ name: string }[]>`select name from nodes where status <> 'removed' order by name`).map(
          (r) => r.name,
        );
      },
      logOf: (name) => dataPaths(name === 'primary' ? primaryDir : nodeDirOf(name)).applianceLog,
      async restart(node) {
        const argv = relays.get(node.name) ?? [];
        if (argv.length) {
          const child = node.exec(argv, { cwd: packageRoot, reject: false, stdin: 'ignore' });
          await Promise.race([
            new Promise<void>((resolve) => child.stdout?.once('data', () => resolve())),
            child.then((res) => {
              throw new Error(`database relay of ${node.name} ended: ${String(res.stderr).slice(-300)}`);
            }),
          ]);
        }
        pinAll(node);
        ok(await svcOn(node, ['up', '--detach', '--data-dir', nodeDirOf(node.name)]));
        await waitFor(
          `${node.name} up again`,
          async () => {
            const rows = await sql<{ up: boolean }[]>`
              select last_seen_at > now() - interval '5 seconds' and ingest_ready as up from nodes where name = ${node.name}`;
            return rows[0]?.up;
          },
          60_000,
        );
      },
      stop: async () => {
        for (const node of ingest) await svcOn(node, ['down', '--data-dir', nodeDirOf(node.name)], 60_000);
        await stop();
      },
    };
    for (const node of ingest)
      await waitFor(
        `${node.name} up`,
        async () => {
          const rows = await sql<{ up: boolean }[]>`
            select last_seen_at > now() - interval '5 seconds' and ingest_ready as up from nodes where name = ${node.name}`;
          return rows[0]?.up;
        },
        60_000,
      );
    return cluster;
  } catch (err) {
    await stop();
    throw err;
  }
}

/** CPU seconds of `pids`, each with what it reaped (a child that ended is counted in its parent). */
export const cpuSecondsOf = (pids: number[]): number => pids.reduce((sum, pid) => sum + cpuOf(pid, true), 0);

/** The cores a process may run on (`Cpus_allowed_list`). */
export function allowedCores(pid: number): string | null {
  try {
    return /^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}
