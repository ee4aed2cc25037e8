import { execFileSync } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageRoot } from '../../src/core/package-root.js';
import { launchChromium } from '../helpers/browser.js';
import { makeDataDir, ok } from '../helpers/cli.js';
import { createClusterDatabase, startTopology, type ClusterNode, type Topology } from '../helpers/cluster.js';
import { waitFor } from '../helpers/publisher.js';

/** A port every node listens on with a tiny HTTP server that answers its own name. */
const ECHO_PORT = 7000;
/** The appliance's API port inside the origin's namespace: its own port space, so the default is free. */
const API_PORT = 8080;

interface Ctx {
  topology: Topology;
  drop?: () => Promise<void>;
  data?: { dir: string; remove: () => void };
}

const namespaces = () => execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' });
const links = () => execFileSync('ip', ['-o', 'link', 'show'], { encoding: 'utf8' });

/** The body at `url` fetched from the root namespace, or the error's name when it cannot be reached. */
async function fromRoot(url: string): Promise<string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3000) });
    return await res.text();
  } catch (err) {
    return `unreachable: ${(err as Error).name}`;
  }
}

/**
 * The same, fetched by a process inside `node`'s namespace; it exits at once (a connection still
 * trying after the abort would hold it until undici's 10 s connect timeout).
 */
async function fromNode(node: ClusterNode, url: string): Promise<string> {
  const code =
    'fetch(process.argv[1], { signal: AbortSignal.timeout(3000) })' +
    '.then((r) => r.text(), (e) => "unreachable: " + e.name).then((t) => process.stdout.write(t, () => process.exit(0)))';
  const res = await node.exec([process.execPath, '-e', code, url], { reject: false });
  return String(res.stdout);
}

const nodesOf = (topology: Topology) => ({
  origin: topology.node('origin'),
  edge1: topology.node('edge1'),
  edge2: topology.node('edge2'),
});

const t = suite<Ctx>('cluster harness: namespaces, faults, the origin appliance inside one');

t.before(async (ctx) => {
  ctx.topology = await startTopology({ nodes: ['origin', 'edge1', 'edge2'] });
  for (const node of Object.values(ctx.topology.nodes)) {
    const server = `require('http').createServer((q, s) => s.end(process.argv[1])).listen(${ECHO_PORT}, () => console.log('ready'))`;
    const child = node.exec([process.execPath, '-e', server, node.name], { reject: false });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  }
});

t.after(async (ctx) => {
  await ctx.topology.stop();
  await ctx.drop?.();
  ctx.data?.remove();
});

t('each node has its own address, reached from the root namespace and from the other nodes', async (ctx) => {
  const { origin, edge1, edge2 } = nodesOf(ctx.topology);
  assert.equal(
    [origin, edge1, edge2].map((n) => n.address),
    ['10', '11', '12'].map((last) => ctx.topology.subnet.replace(/0\/24$/, last)),
  );
  for (const node of [origin, edge1, edge2]) assert.is(await fromRoot(node.url(ECHO_PORT)), node.name);
  assert.is(await fromNode(edge1, origin.url(ECHO_PORT)), 'origin');
  assert.is(await fromNode(origin, edge2.url(ECHO_PORT)), 'edge2');
  // Each namespace has its own ports: every node listens on the same one.
  assert.ok(
    !/:7000\b/.test(execFileSync('ss', ['-tln'], { encoding: 'utf8' })),
    'nothing on 7000 in the root namespace',
  );
});

t('exec runs the command itself inside the namespace (its pid is the one to kill); kill9 ends it', async (ctx) => {
  const edge2 = ctx.topology.node('edge2');
  const child = edge2.exec(['sleep', '600'], { reject: false });
  await waitFor('sleep to start', async () => child.pid && edge2.pids().includes(child.pid));
  const pid = child.pid as number;
  assert.equal(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0'), ['sleep', '600', '']);
  assert.is.not(readlinkSync(`/proc/${pid}/ns/net`), readlinkSync('/proc/self/ns/net'));
  await edge2.kill9(child);
  assert.is((await child).signal, 'SIGKILL');
  assert.not.ok(edge2.pids().includes(pid));
});

t('cut() makes a node unreachable both ways; restore() brings it back', async (ctx) => {
  const { origin, edge1 } = nodesOf(ctx.topology);
  await edge1.cut();
  try {
    // Side by side: each one waits out its timeout.
    const probes = await Promise.all([
      fromRoot(edge1.url(ECHO_PORT)),
      fromNode(origin, edge1.url(ECHO_PORT)),
      fromNode(edge1, origin.url(ECHO_PORT)),
    ]);
    for (const probe of probes) assert.match(probe, /^unreachable/);
    assert.is(await fromNode(edge1, `http://127.0.0.1:${ECHO_PORT}`), 'edge1', 'its own loopback still works');
  } finally {
    await edge1.restore();
  }
  assert.is(await fromRoot(edge1.url(ECHO_PORT)), 'edge1');
  assert.is(await fromNode(edge1, origin.url(ECHO_PORT)), 'origin');
});

t('partition(a, b) cuts a <-> b only; heal() joins them again', async (ctx) => {
  const { origin, edge1, edge2 } = nodesOf(ctx.topology);
  await ctx.topology.partition('origin', 'edge1');
  try {
    const probes = await Promise.all([fromNode(edge1, origin.url(ECHO_PORT)), fromNode(origin, edge1.url(ECHO_PORT))]);
    for (const probe of probes) assert.match(probe, /^unreachable/);
    assert.is(await fromRoot(edge1.url(ECHO_PORT)), 'edge1', 'viewers still reach the edge');
    assert.is(await fromRoot(origin.url(ECHO_PORT)), 'origin');
    assert.is(await fromNode(edge2, origin.url(ECHO_PORT)), 'origin', 'the other edge still reaches the origin');
  } finally {
    await ctx.topology.heal('origin', 'edge1');
  }
  assert.is(await fromNode(edge1, origin.url(ECHO_PORT)), 'origin');
});

t('a node reaches its database on its own loopback, also while its link is cut', async (ctx) => {
  const origin = ctx.topology.node('origin');
  const db = await createClusterDatabase(origin);
  ctx.drop = db.drop;
  assert.match(db.nodeUrl, /^postgres:\/\/[^@]*@127\.0\.0\.1:5432\//);
  const query =
    "import postgres from 'postgres'; const sql = postgres(process.argv[1], { max: 1 });" +
    'const [r] = await sql`select current_database() as db`; console.log(r.db); await sql.end();';
  const select = () =>
    origin.exec([process.execPath, '--input-type=module', '-e', query, db.nodeUrl], {
      cwd: packageRoot,
      reject: false,
    });
  const name = new URL(db.url).pathname.slice(1);
  assert.is(String((await select()).stdout).trim(), name);
  await origin.cut();
  try {
    assert.is(String((await select()).stdout).trim(), name, 'the database is on the node, not across its link');
  } finally {
    await origin.restore();
  }
});

t(
  'svc up in the origin namespace, with its address and the database: /healthz from the root namespace and Chromium',
  async (ctx) => {
    const origin = ctx.topology.node('origin');
    const db = await createClusterDatabase(origin);
    const drop = ctx.drop;
    ctx.drop = async () => {
      await drop?.();
      await db.drop();
    };
    ctx.data = makeDataDir();
    const dir = ctx.data.dir;
    const up = await origin.svc(
      ['up', '--detach', '--no-install', '--data-dir', dir, '--host', origin.address, '--database-url', db.nodeUrl],
      { timeoutMs: 150_000 },
    );
    try {
      ok(up);
      assert.match(
        up.stdout,
        new RegExp(`api\\s+healthy\\s+http://${origin.address.replace(/\./g, '\\.')}:${API_PORT}`),
      );
      const health = await fetch(origin.url(API_PORT, '/healthz'));
      assert.is(health.status, 200);
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const res = await page.goto(origin.url(API_PORT, '/healthz'));
        assert.is(res?.status(), 200);
        assert.equal(JSON.parse(await page.innerText('body')), await health.json());
      } finally {
        await browser.close();
      }
    } finally {
      ok(await origin.svc(['down', '--data-dir', dir], { timeoutMs: 60_000 }));
    }
    await waitFor('the API to stop answering', async () =>
      (await fromRoot(origin.url(API_PORT, '/healthz'))).startsWith('unreachable'),
    );
  },
);

t('stop() leaves no namespace, veth or bridge; a killed run is cleaned up by the next start', async (ctx) => {
  const { run, bridge } = ctx.topology;
  await ctx.topology.stop();
  assert.not.match(namespaces(), new RegExp(`^${run}-`, 'm'));
  assert.not.match(links(), new RegExp(`svc(br|v)${process.pid}`));
  assert.not.match(links(), new RegExp(bridge));

  // Another run, killed with SIGKILL while its topology is up: nothing of it is removed at its exit.
  const script =
    "import { startTopology } from './test/helpers/cluster.ts';" +
    "await startTopology({ nodes: ['a'] }); console.log('up'); setInterval(() => {}, 1000);";
  const { execa } = await import('execa');
  const other = execa(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: packageRoot,
    reject: false,
  });
  await new Promise<void>((resolve) => other.stdout.once('data', () => resolve()));
  other.kill('SIGKILL');
  await other;
  assert.match(namespaces(), new RegExp(`^svct${other.pid}-a`, 'm'));
  ctx.topology = await startTopology({ nodes: ['x'] });
  assert.not.match(namespaces(), new RegExp(`^svct${other.pid}-`, 'm'));
  assert.not.match(links(), new RegExp(`svc(br|v)${other.pid}`));
});

t.run();
