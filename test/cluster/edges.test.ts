import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemClock } from '../../src/core/clock.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { countedUntil, deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { launchChromium } from '../helpers/browser.js';
import { fetchFrom, watchStream, type Received } from '../helpers/cdn-viewer.js';
import { makeDataDir, ok } from '../helpers/cli.js';
import {
  callApi,
  createClusterDatabase,
  killNode,
  mergeJson,
  sayingWhy,
  startTopology,
  type ClusterNode,
  type Topology,
} from '../helpers/cluster.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * The edge tier as the product runs it: an origin (`svc up`) and two edges (`svc edge join`), each
 * in its own network namespace with its own address; light HLS clients and a Chromium viewer in
 * the root namespace fetch through both edges, as DNS round robin would send them. One topology for
 * the whole suite (two cores: cluster tests share it); the faults run in order on it, and the last
 * test checks that every byte the clients received is in the ledger exactly once.
 */

const API = 8080;
const RTMP = 1935;
const CDN = 8081;
const PLAYER = 8082;
/** The name `cdn_url` gives viewers; each client resolves it to one edge (round robin by hand). */
const CDN_NAME = 'cdn.svc.test';

interface Viewer {
  edge: string;
  watch: ReturnType<typeof watchStream>;
}

interface Ctx {
  topology: Topology;
  origin: ClusterNode;
  edges: ClusterNode[];
  db: { url: string; nodeUrl: string; drop: () => Promise<void> };
  sql: Sql;
  originDir: { dir: string; remove: () => void };
  edgeDirs: Record<string, { dir: string; remove: () => void }>;
  /** The root namespace's client addresses, mapped to countries by the edges' tables. */
  clients: { address: string; country: string }[];
  key: string;
  streamId: string;
  streamKey: string;
  playbackUrl: string;
  publisher: Publisher;
  clip: string;
  viewers: Viewer[];
  /** Requests made outside the viewers (probes, forged and cache-busting fetches), tallied too. */
  probes: Received;
  browser?: Browser;
}

const t = suite<Ctx>('cluster: an origin and two edges in their own namespaces');

/** The address as one edge serves it: `cdn_url`'s name resolved to that edge. */
const through = (url: string, edge: ClusterNode) => url.replace(`//${CDN_NAME}:`, `//${edge.address}:`);

const api = (ctx: Ctx, method: string, path: string, body?: unknown) =>
  callApi(ctx.origin.url(API, path), ctx.key, method, body);

/** The edge's access log lines (the current file; the test keeps it below its rotation size). */
function edgeLog(ctx: Ctx, edge: string): { path: string; status: number; cache: string }[] {
  const file = join(ctx.edgeDirs[edge]?.dir as string, 'logs', 'cdn-access.log');
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { path: string; status: number; cache: string });
}

const segmentsOf = (viewers: Viewer[], edge?: string) =>
  viewers.filter((v) => !edge || v.edge === edge).reduce((n, v) => n + v.watch.received.segments, 0);

async function startEdge(ctx: Ctx, edge: ClusterNode): Promise<void> {
  ok(
    await edge.svc(['edge', 'up', '--detach', '--data-dir', ctx.edgeDirs[edge.name]?.dir as string], {
      timeoutMs: 90_000,
    }),
  );
}

t.before(sayingWhy(setUp));

async function setUp(ctx: Ctx): Promise<void> {
  ctx.topology = await startTopology({ nodes: ['origin', 'edge1', 'edge2'] });
  ctx.origin = ctx.topology.node('origin');
  ctx.edges = [ctx.topology.node('edge1'), ctx.topology.node('edge2')];
  // Two more client addresses in the root namespace, for countries.
  const [a, b, c] = ctx.topology.subnet.split('.');
  const extra = [`${a}.${b}.${c}.2`, `${a}.${b}.${c}.3`];
  for (const address of extra) execFileSync('ip', ['addr', 'add', `${address}/24`, 'dev', ctx.topology.bridge]);
  ctx.clients = [
    { address: ctx.topology.rootAddress, country: 'XX' },
    { address: extra[0] as string, country: 'DE' },
    { address: extra[1] as string, country: 'FR' },
  ];
  ctx.db = await createClusterDatabase(ctx.origin);
  ctx.sql = connect(ctx.db.url, { max: 2 });
  ctx.probes = { bytes: 0, requests: 0, segments: 0 };
  ctx.viewers = [];

  // The origin as an operator sets it up for edges: viewers only through them, cdn_url naming them.
  ctx.originDir = makeDataDir();
  const dir = ctx.originDir.dir;
  const node = ctx.origin;
  ok(
    await node.svc(
      ['init', '--no-install', '--data-dir', dir, '--host', node.address, '--database-url', ctx.db.nodeUrl],
      { timeoutMs: 60_000 },
    ),
  );
  mergeJson(join(dir, 'config.json'), {
    public_urls: { cdn_url: `http://${CDN_NAME}:${CDN}` },
    cdn: { log_read_seconds: 1, direct_viewers: false },
    capacity: { cores: 1000 },
    live: { reconnect_window_seconds: 120, idle_publisher_seconds: 3 },
  });
  ok(await node.svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 120_000 }));

  const accounts = new AccountsService(ctx.sql, systemClock);
  const account = await accounts.create({ name: 'Cluster', creditUsd: '100', trusted: true });
  ctx.key = (await accounts.createApiKey(account.id)).key;

  ctx.edgeDirs = {};
  for (const edge of ctx.edges) {
    const added = ok(await node.svc(['edges', 'add', '--name', edge.name, '--json', '--data-dir', dir]));
    const token = (JSON.parse(added.stdout) as { join_token: string }).join_token;
    ctx.edgeDirs[edge.name] = makeDataDir();
    const edgeDir = ctx.edgeDirs[edge.name]?.dir as string;
    ok(
      await edge.svc(
        [
          'edge',
          'join',
          node.url(API),
          '--token',
          token,
          '--data-dir',
          edgeDir,
          '--cdn-port',
          String(CDN),
          '--no-start',
        ],
        { timeoutMs: 60_000 },
      ),
    );
    mergeJson(join(edgeDir, 'edge.json'), {
      log_ship_seconds: 1,
      heartbeat_seconds: 1,
      country_table: Object.fromEntries(
        ctx.clients.filter((c) => c.country !== 'XX').map((c) => [c.address, c.country]),
      ),
    });
    await startEdge(ctx, edge);
  }

  ctx.clip = await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 });
  const created = await api(ctx, 'POST', '/v1/streams', { profile: 'passthrough' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  ctx.streamId = created.body.id;
  ctx.streamKey = created.body.stream_key;
  ctx.publisher = publish(`rtmp://${node.address}:${RTMP}/live/${ctx.streamKey}`, ctx.clip, { loop: true });
  ctx.playbackUrl = await waitFor(
    'the stream plays through an edge',
    async () => {
      const s = await api(ctx, 'GET', `/v1/streams/${ctx.streamId}`);
      const url: string | null = s.body.playback_url;
      if (s.body.status !== 'live' || !url) return false;
      const res = await fetchFrom(
        through(url, ctx.edges[0] as ClusterNode),
        { localAddress: ctx.topology.rootAddress, userAgent: 'probe' },
        ctx.probes,
      );
      return res.status === 200 && url;
    },
    90_000,
  );
}

t.after(async (ctx) => {
  for (const v of ctx.viewers ?? []) await v.watch.stop();
  await ctx.browser?.close();
  await ctx.publisher?.kill();
  if (ctx.originDir) await ctx.origin.svc(['down', '--data-dir', ctx.originDir.dir], { timeoutMs: 60_000 });
  for (const [name, d] of Object.entries(ctx.edgeDirs ?? {}))
    await ctx.topology.node(name).svc(['edge', 'down', '--data-dir', d.dir], { timeoutMs: 60_000 });
  await ctx.topology?.stop();
  await ctx.sql?.end({ timeout: 5 });
  await ctx.db?.drop();
  ctx.originDir?.remove();
  for (const d of Object.values(ctx.edgeDirs ?? {})) d.remove();
});

t(
  'twelve light clients from three addresses watch through both edges; the origin refuses them directly; forged addresses and cache-busting stop at the edge',
  async (ctx) => {
    // Two players (browsers) per address on each edge: twelve viewers.
    for (const edge of ctx.edges)
      for (const [i, client] of ctx.clients.entries())
        for (const player of ['a', 'b'])
          ctx.viewers.push({
            edge: edge.name,
            watch: watchStream(through(ctx.playbackUrl, edge), {
              localAddress: client.address,
              userAgent: `viewer-${edge.name}-${i}-${player}`,
            }),
          });
    await waitFor(
      'every viewer has segments',
      async () => ctx.viewers.every((v) => v.watch.received.segments >= 5),
      90_000,
    );

    const from = { localAddress: ctx.topology.rootAddress, userAgent: 'probe' };
    // cdn.direct_viewers is off: a well-signed address straight at the origin is refused.
    const direct = ctx.playbackUrl.replace(`//${CDN_NAME}:`, `//${ctx.origin.address}:`);
    assert.is((await fetchFrom(direct, from, ctx.probes)).status, 403, 'the origin refuses viewers');
    // A forged signature and an expired one, refused by the edge itself.
    const edge1 = ctx.edges[0] as ClusterNode;
    const signed = through(ctx.playbackUrl, edge1);
    const forged = signed.replace(
      /\/([A-Za-z0-9_-])([A-Za-z0-9_-]{21})\./,
      (_m, first: string, rest: string) => `/${first === 'A' ? 'B' : 'A'}${rest}.`,
    );
    assert.is((await fetchFrom(forged, from, ctx.probes)).status, 403, 'forged');
    const expired = signed.replace(/\.([0-9]{10})\//, `.${Math.floor(Date.now() / 1000) - 60}/`);
    assert.is((await fetchFrom(expired, from, ctx.probes)).status, 403, 'expired');

    // Cache-busting: the same segment with queries of the client's making is fetched from the origin once.
    const media = (await fetchFrom(signed, from, ctx.probes)).body
      .toString()
      .split('\n')
      .find((l) => l.endsWith('.m3u8'));
    const base = signed.slice(0, signed.lastIndexOf('/') + 1);
    const list = (await fetchFrom(base + media, from, ctx.probes)).body.toString();
    const segment = list
      .split('\n')
      .filter((l) => l.endsWith('.ts'))
      .at(-1) as string;
    for (let i = 0; i < 5; i++) {
      const res = await fetchFrom(`${base}${segment}?bust=${i}-${Math.random()}`, from, ctx.probes);
      assert.is(res.status, 200);
    }
    await waitFor(
      'the edge logged the busting fetches',
      async () => {
        const lines = edgeLog(ctx, 'edge1').filter((l) => l.path.endsWith(`/${segment}`));
        return lines.length >= 6;
      },
      10_000,
    );
    const misses = edgeLog(ctx, 'edge1').filter((l) => l.path.endsWith(`/${segment}`) && l.cache === 'MISS');
    assert.ok(misses.length <= 1, `fetched from the origin ${misses.length} times`);

    // One origin fetch per segment per edge, whatever the number of viewers.
    for (const edge of ctx.edges) {
      const perSegment = new Map<string, number>();
      for (const line of edgeLog(ctx, edge.name))
        if (line.path.endsWith('.ts') && line.cache === 'MISS')
          perSegment.set(line.path, (perSegment.get(line.path) ?? 0) + 1);
      assert.ok(perSegment.size >= 5, `${edge.name} fetched segments`);
      const twice = [...perSegment].filter(([, n]) => n > 1);
      assert.equal(twice, [], `${edge.name}: segments fetched from the origin more than once`);
    }
  },
);

t(
  'a Chromium viewer plays the hosted player through an edge, with the playlist age the player keeps its delay by',
  async (ctx) => {
    // A stream of its own: the browser's cache answers some of its requests, which no edge logs, so
    // its bytes stay out of the exact comparison of the light clients' stream.
    const created = await api(ctx, 'POST', '/v1/streams', { profile: 'passthrough' });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const publisher = publish(`rtmp://${ctx.origin.address}:${RTMP}/live/${created.body.stream_key}`, ctx.clip, {
      loop: true,
    });
    try {
      const edge2 = ctx.edges[1] as ClusterNode;
      ctx.browser = await launchChromium([`--host-resolver-rules=MAP ${CDN_NAME} ${edge2.address}`]);
      const page = await ctx.browser.newPage();
      const ages: string[] = [];
      page.on('response', (res) => {
        if (res.url().includes(CDN_NAME) && /\/(source|720p|480p)\.m3u8$/.test(new URL(res.url()).pathname)) {
          const age = res.headers()['x-playlist-age'];
          if (age) ages.push(age);
        }
      });
      await page.goto(ctx.origin.url(PLAYER, `/${created.body.id}`));
      await page.waitForFunction(
        () => {
          const video = document.querySelector('video');
          return video !== null && video.currentTime > 3;
        },
        undefined,
        { timeout: 90_000 },
      );
      assert.ok(ages.length > 0, 'media playlists came with X-Playlist-Age');
      assert.ok(
        ages.every((a) => Number(a) >= 0 && Number(a) < 10),
        `ages: ${ages.join(', ')}`,
      );
      const lines = edgeLog(ctx, 'edge2').filter((l) => l.path.includes(created.body.id));
      assert.ok(
        lines.some((l) => l.path.endsWith('.ts') && l.status === 200),
        'the player fetched segments from edge2',
      );
    } finally {
      await ctx.browser?.close();
      ctx.browser = undefined;
      await publisher.kill();
    }
  },
);

t(
  'kill -9 of an edge while viewers watch: the other edge goes on; the dead edge, started again, serves and ships its log',
  async (ctx) => {
    const [edge1, edge2] = ctx.edges as [ClusterNode, ClusterNode];
    killNode(edge1);
    const before = segmentsOf(ctx.viewers, 'edge2');
    await waitFor(
      'edge2 viewers keep watching',
      async () => segmentsOf(ctx.viewers, 'edge2') >= before + 3 * 5,
      60_000,
    );
    const stalled = segmentsOf(ctx.viewers, 'edge1');
    await startEdge(ctx, edge1);
    await waitFor('edge1 viewers watch again', async () => segmentsOf(ctx.viewers, 'edge1') >= stalled + 3 * 3, 90_000);
    assert.ok(edge2.address);
  },
);

t(
  'the link between an edge and the origin cut for 60 s: its viewers get what it holds, its log is counted once the link is back',
  async (ctx) => {
    const edge2 = ctx.edges[1] as ClusterNode;
    await ctx.topology.partition('origin', 'edge2');
    try {
      await new Promise((r) => setTimeout(r, 60_000));
      const [row] = await ctx.sql<
        { nginx_up: boolean; last_seen_at: Date }[]
      >`select nginx_up, last_seen_at from edges where name = 'edge2'`;
      assert.ok(row && Date.now() - row.last_seen_at.getTime() > 30_000, 'the origin has not heard from it while cut');
    } finally {
      await ctx.topology.heal('origin', 'edge2');
    }
    const before = segmentsOf(ctx.viewers, 'edge2');
    await waitFor('edge2 viewers watch again', async () => segmentsOf(ctx.viewers, 'edge2') >= before + 3 * 3, 60_000);
    await waitFor(
      'edge2 heard from again',
      async () => {
        const [row] = await ctx.sql<{ last_seen_at: Date }[]>`select last_seen_at from edges where name = 'edge2'`;
        return row !== undefined && Date.now() - row.last_seen_at.getTime() < 5000;
      },
      30_000,
    );
    assert.ok(edge2.address);
  },
);

t('the origin restarted under load: the edges answer from their caches, no storm of 5xx', async (ctx) => {
  const errorsBefore = ctx.viewers.reduce((n, v) => n + (v.watch.received.serverErrors ?? 0), 0);
  const requestsBefore = ctx.viewers.reduce((n, v) => n + v.watch.received.requests, 0);
  ok(await ctx.origin.svc(['down', '--data-dir', ctx.originDir.dir], { timeoutMs: 90_000 }));
  await ctx.publisher.kill();
  ok(await ctx.origin.svc(['up', '--detach', '--data-dir', ctx.originDir.dir], { timeoutMs: 120_000 }));
  ctx.publisher = publish(`rtmp://${ctx.origin.address}:${RTMP}/live/${ctx.streamKey}`, ctx.clip, { loop: true });
  const errors = ctx.viewers.reduce((n, v) => n + (v.watch.received.serverErrors ?? 0), 0) - errorsBefore;
  const requests = ctx.viewers.reduce((n, v) => n + v.watch.received.requests, 0) - requestsBefore;
  assert.ok(requests > 0, 'viewers kept asking');
  assert.ok(errors <= requests * 0.05, `${errors} 5xx of ${requests} requests while the origin restarted`);
  const before = segmentsOf(ctx.viewers);
  await waitFor('viewers watch new segments', async () => segmentsOf(ctx.viewers) >= before + 6 * 3, 120_000);
});

t(
  'billing: the bytes every client received through both edges are in the ledger exactly; countries and the cdn series across edges',
  async (ctx) => {
    const stoppedAt = Date.now();
    let received = ctx.probes.bytes;
    for (const v of ctx.viewers) received += (await v.watch.stop()).bytes;
    ctx.viewers = [];
    let last = -1;
    await waitFor(
      'every edge log counted past the end of watching',
      async () => {
        last = await deliveredBytes(ctx.sql, ctx.streamId);
        const until = await countedUntil(ctx.sql);
        return until !== null && until.getTime() > stoppedAt + 2000 && last >= received;
      },
      120_000,
    ).catch(() => assert.is(last, received, 'delivery bytes never reached what the clients received'));
    assert.is(await deliveredBytes(ctx.sql, ctx.streamId), received, 'bytes in the ledger = bytes received, exactly');
    const viewers = await api(ctx, 'GET', `/v1/streams/${ctx.streamId}/viewers`);
    assert.is(viewers.status, 200, JSON.stringify(viewers.body));
    const countries = (viewers.body.countries as { country: string }[]).map((c) => c.country).sort();
    for (const c of ['DE', 'FR']) assert.ok(countries.includes(c), `countries: ${countries.join(', ')}`);
    assert.ok((viewers.body.cdn as unknown[]).length > 0, 'the cdn series has minutes');
    const [edgesServed] = await ctx.sql<{ n: number }[]>`select count(*)::int as n from edges where bytes_served > 0`;
    assert.is(edgesServed?.n, 2, 'both edges reported what they served');
  },
);

t.run();
