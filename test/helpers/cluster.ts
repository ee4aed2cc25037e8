/**
 * Several machines on this one: each node (origin, edges) in its own network namespace with its
 * own address on a bridge in the root namespace, where the test, its Chromium and its HLS
 * clients run. Nothing leaves loopback and the run's 10.77.<n>.0/24: no route out, no forwarding.
 *
 *   root ns: bridge svcbr<pid> 10.77.n.1/24 ── veth svcv<pid>n<i> ──┬── ns svct<pid>-origin eth0 10.77.n.10
 *                                                                    └── ns svct<pid>-edge1  eth0 10.77.n.11 ...
 *
 * Faults: `node.cut()` takes the node's link down (nobody reaches it, it reaches nobody);
 * `topology.partition(a, b)` cuts only a <-> b (packets vanish silently, as on a cut cable).
 * Everything is removed by `stop()`, at process exit, and (leftovers of a killed run) at the next start.
 * Needs root (tests run as root on the test machine).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type Options, type ResultPromise } from 'execa';
import { packageRoot } from '../../src/core/package-root.js';
import { createEmptyDatabase, ok, startSvc, svc, type CliResult, type SvcOptions } from './cli.js';
import { relay } from './socket-relay.js';

const PREFIX = 'svct';
/** Port of the test PostgreSQL on each node's own loopback (see ClusterNode.databaseUrl). */
export const NODE_DATABASE_PORT = 5432;
/** A MAC address no interface has: frames to it are flooded by the bridge and dropped by every port. */
const NOWHERE_MAC = '02:00:00:00:77:77';

export interface ClusterNode {
  name: string;
  /** The network namespace (`ip netns exec <namespace> ...`). */
  namespace: string;
  /** The node's address on the run's subnet, reachable from the root namespace and the other nodes. */
  address: string;
  /** The root-side end of the node's veth pair, on the bridge. */
  veth: string;
  /** `http://<address>:<port><path>`. */
  url(port: number, path?: string): string;
  /** Runs `argv` inside the namespace (execa; the pid is the command's own: `ip netns exec` execs it). */
  exec<O extends Options = Options>(argv: string[], opts?: O): ResultPromise<O>;
  /** Runs the built `svc` CLI inside the namespace to its end (test/helpers/cli.ts svc). */
  svc(args: string[], opts?: SvcOptions): Promise<CliResult>;
  /** Starts a long-lived `svc` inside the namespace (a foreground `svc up`), not awaited. */
  startSvc(args: string[], opts?: SvcOptions): ReturnType<typeof startSvc>;
  /** SIGKILL to a child started here, waits for its end. */
  kill9(child: { pid?: number | undefined } & PromiseLike<unknown>): Promise<void>;
  /** Link down: the node reaches nobody, nobody reaches it (its own loopback, and its database, still work). */
  cut(): Promise<void>;
  restore(): Promise<void>;
  /**
   * `url` (a database on the test PostgreSQL, as the root namespace reaches it) as this node
   * reaches it: at 127.0.0.1:5432 on the node's own loopback, relayed over a unix socket (the
   * filesystem is shared by the namespaces). So the database stays reachable while the node is
   * cut, as a database on the origin machine would. (postgres.js 3.4.9 takes no unix socket in a
   * URL, and the test cluster of test/run.ts listens on TCP only.)
   */
  databaseUrl(url: string): Promise<string>;
  /** The pids of every process inside the namespace. */
  pids(): number[];
}

export interface Topology {
  /** `svct<pid>`: the prefix of the run's namespaces. */
  run: string;
  bridge: string;
  /** The root namespace's address on the bridge (the test, Chromium and HLS clients). */
  rootAddress: string;
  /** `10.77.<n>.0/24`. */
  subnet: string;
  nodes: Record<string, ClusterNode>;
  node(name: string): ClusterNode;
  /** Cuts the link between two nodes only: each one's packets to the other vanish. */
  partition(a: string, b: string): Promise<void>;
  heal(a: string, b: string): Promise<void>;
  /** Kills every process in the namespaces, removes namespaces, veths, bridge and relays. */
  stop(): Promise<void>;
}

/** A fresh empty database for a cluster run (`svc up` migrates it), reached from `node` too. */
export async function createClusterDatabase(
  node: ClusterNode,
): Promise<{ url: string; nodeUrl: string; drop: () => Promise<void> }> {
  const db = await createEmptyDatabase();
  return { url: db.url, nodeUrl: await node.databaseUrl(db.url), drop: db.drop };
}

const ip = (args: string[]): string =>
  execFileSync('ip', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const tryIp = (args: string[]): void => {
  try {
    ip(args);
  } catch {
    // Already gone.
  }
};

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const namespacePids = (ns: string): number[] => {
  try {
    return ip(['netns', 'pids', ns]).split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** SIGKILL to everything in the namespace, then the namespace. */
function removeNamespace(ns: string): void {
  for (let round = 0; round < 50; round++) {
    const pids = namespacePids(ns);
    if (!pids.length) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Ended meanwhile.
      }
    }
    execFileSync('sleep', ['0.1']);
  }
  tryIp(['netns', 'del', ns]);
}

/** Namespaces and bridges of earlier runs whose process is gone (killed before it could clean up). */
function removeLeftovers(): void {
  const runPid = (name: string, re: RegExp): number | null => {
    const m = re.exec(name);
    return m ? Number(m[1]) : null;
  };
  const namespaces = JSON.parse(ip(['-j', 'netns', 'list']) || '[]') as { name: string }[];
  for (const { name } of namespaces) {
    const pid = runPid(name, new RegExp(`^${PREFIX}(\\d+)-`));
    if (pid !== null && pid !== process.pid && !alive(pid)) removeNamespace(name);
  }
  const links = JSON.parse(ip(['-j', 'link', 'show']) || '[]') as { ifname: string }[];
  for (const { ifname } of links) {
    const pid = runPid(ifname, /^svc(?:br|v)(\d+)/);
    if (pid !== null && pid !== process.pid && !alive(pid)) tryIp(['link', 'del', ifname]);
  }
  for (const name of readdirSync(tmpdir())) {
    const pid = runPid(name, new RegExp(`^${PREFIX}(\\d+)-`));
    if (pid !== null && pid !== process.pid && !alive(pid))
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
  }
}

/** Until both ends of the node's veth are up and the bridge forwards on its port. */
async function linkUp(veth: string, namespace: string): Promise<void> {
  type Link = { operstate?: string; linkinfo?: { info_slave_data?: { state?: string } } };
  const show = (args: string[]) => (JSON.parse(ip(args)) as Link[])[0];
  for (let tries = 0; tries < 100; tries++) {
    const root = show(['-j', '-d', 'link', 'show', 'dev', veth]);
    const inside = show(['-n', namespace, '-j', 'link', 'show', 'dev', 'eth0']);
    const forwarding = root?.linkinfo?.info_slave_data?.state === 'forwarding';
    if (root?.operstate === 'UP' && inside?.operstate === 'UP' && forwarding) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${veth} did not come up`);
}

/** The first 10.77.<n>.0/24 no interface of the root namespace has an address in (runs side by side). */
function freeSubnet(): number {
  const used = new Set<number>();
  const addrs = JSON.parse(ip(['-j', 'addr', 'show'])) as { addr_info?: { local?: string }[] }[];
  for (const link of addrs)
    for (const a of link.addr_info ?? []) {
      const m = /^10\.77\.(\d+)\./.exec(a.local ?? '');
      if (m) used.add(Number(m[1]));
    }
  for (let n = 0; n < 256; n++) if (!used.has(n)) return n;
  throw new Error('no free subnet in 10.77.0.0/16');
}

const live = new Set<() => void>();
let hooked = false;
/** At exit (and on SIGINT/SIGTERM, which skip 'exit' otherwise): nothing of a run outlives it. */
function hookExit(): void {
  if (hooked) return;
  hooked = true;
  const teardownAll = () => {
    for (const teardown of [...live]) teardown();
  };
  process.on('exit', teardownAll);
  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)
    process.once(signal, () => {
      teardownAll();
      process.exit(code);
    });
}

export async function startTopology(opts: { nodes: string[] }): Promise<Topology> {
  if (process.getuid?.() !== 0) throw new Error('the cluster harness needs root (network namespaces)');
  if (new Set(opts.nodes).size !== opts.nodes.length || opts.nodes.length > 200)
    throw new Error('node names must be unique, at most 200');
  const bad = opts.nodes.find((name) => !/^[a-z][a-z0-9]{0,19}$/.test(name));
  if (bad !== undefined) throw new Error(`node name ${bad}: lower-case letters and digits, at most 20`);
  // The names of the bridge and veths carry the pid only (interface names are 15 characters at most).
  if (live.size) throw new Error('one topology at a time per process: stop() the last one first');
  removeLeftovers();
  hookExit();

  const run = `${PREFIX}${process.pid}`;
  const n = freeSubnet();
  const bridge = `svcbr${process.pid}`;
  const rootAddress = `10.77.${n}.1`;
  const dir = mkdtempSync(join(tmpdir(), `${run}-`));
  const nodes: Record<string, ClusterNode> = {};
  const relays: Server[] = [];
  const rootSockets = new Map<string, string>();

  const teardown = () => {
    live.delete(teardown);
    for (const server of relays) server.close();
    for (const node of Object.values(nodes)) {
      tryIp(['link', 'del', node.veth]);
      removeNamespace(node.namespace);
    }
    tryIp(['link', 'del', bridge]);
    rmSync(dir, { recursive: true, force: true });
  };
  live.add(teardown);

  try {
    ip(['link', 'add', bridge, 'type', 'bridge', 'forward_delay', '0']);
    ip(['addr', 'add', `${rootAddress}/24`, 'dev', bridge]);
    ip(['link', 'set', bridge, 'up']);
    opts.nodes.forEach((name, i) => {
      const namespace = `${run}-${name}`;
      const veth = `svcv${process.pid}n${i}`;
      const address = `10.77.${n}.${10 + i}`;
      ip(['netns', 'add', namespace]);
      ip(['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', namespace]);
      ip(['link', 'set', veth, 'master', bridge, 'up']);
      ip(['-n', namespace, 'addr', 'add', `${address}/24`, 'dev', 'eth0']);
      ip(['-n', namespace, 'link', 'set', 'eth0', 'up']);
      ip(['-n', namespace, 'link', 'set', 'lo', 'up']);
      nodes[name] = makeNode({
        name,
        namespace,
        address,
        veth,
        dir,
        relays,
        rootSockets,
        peers: () => Object.values(nodes),
      });
    });
  } catch (err) {
    teardown();
    throw err;
  }

  const node = (name: string): ClusterNode => {
    const found = nodes[name];
    if (!found) throw new Error(`no node ${name} in this topology`);
    return found;
  };
  return {
    run,
    bridge,
    rootAddress,
    subnet: `10.77.${n}.0/24`,
    nodes,
    node,
    async partition(a, b) {
      const [x, y] = [node(a), node(b)];
      ip(['-n', x.namespace, 'neigh', 'replace', y.address, 'lladdr', NOWHERE_MAC, 'dev', 'eth0', 'nud', 'permanent']);
      ip(['-n', y.namespace, 'neigh', 'replace', x.address, 'lladdr', NOWHERE_MAC, 'dev', 'eth0', 'nud', 'permanent']);
    },
    async heal(a, b) {
      const [x, y] = [node(a), node(b)];
      tryIp(['-n', x.namespace, 'neigh', 'del', y.address, 'dev', 'eth0']);
      tryIp(['-n', y.namespace, 'neigh', 'del', x.address, 'dev', 'eth0']);
    },
    async stop() {
      teardown();
    },
  };
}

function makeNode(o: {
  name: string;
  namespace: string;
  address: string;
  veth: string;
  dir: string;
  relays: Server[];
  rootSockets: Map<string, string>;
  peers: () => ClusterNode[];
}): ClusterNode {
  const via = ['ip', 'netns', 'exec', o.namespace];
  let database: { target: string; started: Promise<void> } | undefined;

  /** The root-side half: a unix socket in the run's dir relayed to the server's TCP port. */
  const rootSocket = async (host: string, port: number): Promise<string> => {
    const key = `${host}:${port}`;
    const known = o.rootSockets.get(key);
    if (known) return known;
    const path = join(o.dir, `pg-${o.rootSockets.size}.sock`);
    o.rootSockets.set(key, path);
    o.relays.push(await relay({ path }, { host, port }));
    return path;
  };

  const self: ClusterNode = {
    name: o.name,
    namespace: o.namespace,
    address: o.address,
    veth: o.veth,
    url: (port, path = '') => `http://${o.address}:${port}${path}`,
    exec: (argv, opts) => execa(via[0] as string, [...via.slice(1), ...argv], opts ?? ({} as never)) as never,
    svc: (args, opts = {}) => svc(args, { ...opts, via }),
    startSvc: (args, opts = {}) => startSvc(args, { ...opts, via }),
    async kill9(child) {
      if (child.pid) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // Ended already.
        }
      }
      await Promise.resolve(child).then(
        () => undefined,
        () => undefined,
      );
    },
    async cut() {
      ip(['link', 'set', o.veth, 'down']);
    },
    async restore() {
      ip(['link', 'set', o.veth, 'up']);
      // The carrier reaches the other end and the bridge port a moment later (the kernel's link
      // watch runs up to once a second): until then the first packets vanish.
      await linkUp(o.veth, o.namespace);
      // Neighbour entries from before the cut hold the first connections for about a second
      // (measured: ~1 s to the first answer without this, a few ms with it).
      tryIp(['neigh', 'flush', 'to', o.address]);
      tryIp(['-n', o.namespace, 'neigh', 'flush', 'dev', 'eth0']);
      for (const peer of o.peers()) if (peer !== self) tryIp(['-n', peer.namespace, 'neigh', 'flush', 'to', o.address]);
    },
    async databaseUrl(url) {
      const u = new URL(url);
      const target = `${u.hostname}:${u.port || 5432}`;
      if (database && database.target !== target)
        throw new Error(`node ${o.name} reaches ${database.target} already; one database server per node`);
      database ??= {
        target,
        started: (async () => {
          const socket = await rootSocket(u.hostname, Number(u.port || 5432));
          // The node-side half: a relay process inside the namespace, killed with it at teardown.
          const child = self.exec(
            [
              process.execPath,
              '--import',
              'tsx',
              join(packageRoot, 'test', 'helpers', 'socket-relay.ts'),
              `127.0.0.1:${NODE_DATABASE_PORT}`,
              socket,
            ],
            { cwd: packageRoot, reject: false, stdin: 'ignore' },
          );
          await new Promise<void>((resolve, reject) => {
            let out = '';
            child.stdout.on('data', (chunk: Buffer) => {
              out += String(chunk);
              if (out.includes('ready')) resolve();
            });
            void child.then((res) =>
              reject(new Error(`database relay in ${o.namespace} ended: ${String(res.stderr).slice(-500)}`)),
            );
          });
        })(),
      };
      await database.started;
      u.hostname = '127.0.0.1';
      u.port = String(NODE_DATABASE_PORT);
      return u.toString();
    },
    pids: () => namespacePids(o.namespace),
  };
  return self;
}

/** Every process of a node (its svc, nginx, ffmpegs) but `except`, killed at once: the machine died. */
export function killNode(node: ClusterNode, except: number[] = []): void {
  // Signals straight from this process, microseconds apart: one kill(1) each took milliseconds, in
  // which the node's appliance could still write a heartbeat after the caller took the time of the kill.
  for (const pid of node.pids())
    if (!except.includes(pid))
      try {
        process.kill(pid, 'SIGKILL');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
      }
}

/**
 * `svc nodes add <node>` on the primary (whose data dir is `primaryDir`, API on `apiPort`), then
 * `svc node join` on the node into `dir`, on `databaseUrl` (as the root namespace reaches it): the join's output.
 */
export async function addAndJoin(
  primary: ClusterNode,
  primaryDir: string,
  apiPort: number,
  node: ClusterNode,
  dir: string,
  databaseUrl: string,
): Promise<CliResult> {
  const added = ok(await primary.svc(['nodes', 'add', '--name', node.name, '--json', '--data-dir', primaryDir]));
  const token = (JSON.parse(added.stdout) as { join_token: string }).join_token;
  const join = [primary.url(apiPort), '--token', token, '--data-dir', dir, '--host', node.address];
  const database = ['--database-url', await node.databaseUrl(databaseUrl), '--no-install'];
  return ok(await node.svc(['node', 'join', ...join, ...database], { timeoutMs: 60_000 }));
}

/** Sets keys of a node's JSON settings file (config.json, edge.json); an object merges into the one there. */
export function mergeJson(file: string, patch: Record<string, unknown>): void {
  const current = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const merged: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch))
    merged[k] =
      typeof v === 'object' && v !== null && !Array.isArray(v) && typeof current[k] === 'object'
        ? { ...(current[k] as object), ...v }
        : v;
  writeFileSync(file, JSON.stringify(merged, null, 2));
}

/** A call to a node's API (`url`: the whole address) with an account's key; ten seconds at most. */
export async function callApi(url: string, key: string, method: string, body?: unknown) {
  const res = await fetch(url, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

/** A suite's `before` that says why its set-up failed (uvu reports a failed hook only as every test failing). */
export const sayingWhy =
  <C>(setUp: (ctx: C) => Promise<void>) =>
  async (ctx: C): Promise<void> => {
    try {
      await setUp(ctx);
    } catch (err) {
      console.error('cluster set-up failed:', err);
      throw err;
    }
  };

/** A stable ingest name: HAProxy in TCP mode at `bind` over `nodes`' `port`, each checked every second. */
export interface TcpBalancer {
  stop(): Promise<void>;
}

export function startTcpBalancer(bind: string, nodes: ClusterNode[], port: number): TcpBalancer {
  const cfg = join(tmpdir(), `svc-haproxy-${process.pid}-${bind.replace(/\W/g, '_')}.cfg`);
  writeFileSync(
    cfg,
    [
      'defaults',
      '  mode tcp',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  retries 2',
      '  option redispatch',
      'frontend ingest',
      `  bind ${bind}`,
      '  default_backend nodes',
      'backend nodes',
      '  balance roundrobin',
      ...nodes.map((n) => `  server ${n.name} ${n.address}:${port} check inter 1s fall 2 rise 1`),
      '',
    ].join('\n'),
  );
  const proc = execa('haproxy', ['-db', '-f', cfg], { reject: false, stdio: 'ignore' });
  return {
    async stop() {
      proc.kill('SIGKILL');
      await proc;
      rmSync(cfg, { force: true });
    },
  };
}
