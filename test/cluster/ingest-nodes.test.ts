import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ORIGIN_SLICE_SECONDS } from '../../src/composition/appliance.js';
import { systemClock } from '../../src/core/clock.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { parseMediaPlaylist } from '../../src/platform/media/playlist.js';
import { commandLine } from '../../src/platform/process/proc.js';
import { makeDataDir, ok } from '../helpers/cli.js';
import {
  addAndJoin,
  callApi,
  createClusterDatabase,
  killNode,
  mergeJson,
  sayingWhy,
  startTcpBalancer,
  startTopology,
  type ClusterNode,
  type TcpBalancer,
  type Topology,
} from '../helpers/cluster.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, runPublisher, waitFor, type Publisher } from '../helpers/publisher.js';
import { whipPublish } from '../helpers/whip-client.js';

/**
 * Ingest nodes as the product runs them: a primary (`svc up`) and two ingest nodes (`svc nodes
 * add` there, `svc node join` on the node), each in its own network namespace, on one PostgreSQL;
 * publishers reach them directly (`rtmp_url` names a node) or through HAProxy in the root
 * namespace, the stable ingest name over every node. One topology for the suite: the tests run in
 * order on it.
 */

const API = 8080;
const RTMP = 1935;

interface Ctx {
  topology: Topology;
  primary: ClusterNode;
  ingest: ClusterNode[];
  db: { url: string; nodeUrl: string; drop: () => Promise<void> };
  sql: Sql;
  dirs: Record<string, { dir: string; remove: () => void }>;
  key: string;
  clip: string;
  haproxy: TcpBalancer;
  /** The stable ingest name: HAProxy's address and port in the root namespace. */
  stableRtmp: string;
  publishers: Publisher[];
}

const t = suite<Ctx>('cluster: a primary and two ingest nodes on one PostgreSQL');

const api = (ctx: Ctx, method: string, path: string, body?: unknown) =>
  callApi(ctx.primary.url(API, path), ctx.key, method, body);

/** Settings every node of the run gets: one core each (0.1 kept), short publisher timeouts. */
const NODE_SETTINGS = {
  capacity: { cores: 1, reserved_cores: 0.1 },
  live: { idle_publisher_seconds: 3 },
  // A dead node's unfinished session is awaited 15 s after the end, not two minutes.
  recordings: { check_seconds: 2, retry_seconds: 5, pieces_wait_seconds: 15 },
};

async function joinNode(ctx: Ctx, node: ClusterNode): Promise<void> {
  ctx.dirs[node.name] = makeDataDir();
  const dir = ctx.dirs[node.name]!.dir;
  await addAndJoin(ctx.primary, ctx.dirs.primary!.dir, API, node, dir, ctx.db.url);
  mergeJson(join(dir, 'config.json'), NODE_SETTINGS);
  ok(await node.svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 120_000 }));
}

const nodesList = async (ctx: Ctx) =>
  JSON.parse(ok(await ctx.primary.svc(['nodes', 'list', '--json', '--data-dir', ctx.dirs.primary!.dir])).stdout)
    .data as {
    name: string;
    state: string;
    status: string;
    pending: number;
    live: number;
  }[];

const nodeOf = async (ctx: Ctx, streamId: string) =>
  (
    await ctx.sql<
      { name: string }[]
    >`select n.name from streams s join nodes n on n.id = s.node_id where s.id = ${streamId}`
  )[0]?.name;

/** A passthrough stream reserved on `node`: the other nodes drained while it is made. */
async function createdOn(ctx: Ctx, node: ClusterNode) {
  const dir = ctx.dirs.primary!.dir;
  const others = (await nodesList(ctx)).filter((n) => n.name !== node.name && n.state === 'up');
  for (const o of others) ok(await ctx.primary.svc(['nodes', 'drain', o.name, '--data-dir', dir]));
  const res = await api(ctx, 'POST', '/v1/streams', { profile: 'passthrough' });
  for (const o of others) ok(await ctx.primary.svc(['nodes', 'activate', o.name, '--data-dir', dir]));
  assert.is(res.status, 201, JSON.stringify(res.body));
  assert.is(await nodeOf(ctx, res.body.id), node.name);
  return res;
}

/**
 * A passthrough stream live on `node` (the other nodes drained while it is made), published
 * straight to it: to its `rtmp_url`, or over SRT to its `srt_url` (MPEG-TS, through the node's SRT relay).
 */
async function liveOn(ctx: Ctx, node: ClusterNode, over: 'rtmp' | 'srt' = 'rtmp') {
  const res = await createdOn(ctx, node);
  const publisher =
    over === 'rtmp'
      ? publish(`${res.body.rtmp_url}/${res.body.stream_key}`, ctx.clip, { loop: true })
      : runPublisher(['-re', '-stream_loop', '-1', '-i', ctx.clip, '-c', 'copy', '-f', 'mpegts', res.body.srt_url]);
  ctx.publishers.push(publisher);
  const playback = await waitFor(
    'live',
    async () => {
      const got = await api(ctx, 'GET', `/v1/streams/${res.body.id}`);
      return got.body.status === 'live' && (got.body.playback_url as string);
    },
    30_000,
  );
  return { res, publisher, playback };
}

/** A process's command line as one string ('' once it is gone). */
const commandOf = (pid: number): string => (commandLine(pid) ?? []).join(' ');

/** A media playlist's sequence numbers now, through the primary's origin (what edges and CDNs fetch). */
async function originPlaylist(ctx: Ctx, playbackUrl: string) {
  const master = await (await fetch(playbackUrl, { signal: AbortSignal.timeout(5000) })).text();
  const media = master.split('\n').find((l) => l && !l.startsWith('#'));
  if (!media) return null;
  const res = await fetch(new URL(media, playbackUrl), { signal: AbortSignal.timeout(5000) });
  if (res.status !== 200) return null;
  const text = await res.text();
  return { text, parsed: parseMediaPlaylist(text) };
}

/** A publisher as OBS is one: it publishes, and when refused or cut off, tries again every second. */
function retryingPublisher(url: string, clip: string): { stop: () => Promise<void>; attempts: () => number } {
  let current: Publisher | null = null;
  let stopped = false;
  let attempts = 0;
  const loop = async () => {
    while (!stopped) {
      attempts++;
      current = publish(url, clip, { loop: true });
      await current.exited;
      if (!stopped) await new Promise((r) => setTimeout(r, 1000));
    }
  };
  const running = loop();
  return {
    attempts: () => attempts,
    stop: async () => {
      stopped = true;
      await current?.kill();
      await running;
    },
  };
}

t.before(sayingWhy(setUp));

async function setUp(ctx: Ctx): Promise<void> {
  ctx.topology = await startTopology({ nodes: ['primary', 'ingest1', 'ingest2'] });
  ctx.primary = ctx.topology.node('primary');
  ctx.ingest = [ctx.topology.node('ingest1'), ctx.topology.node('ingest2')];
  ctx.db = await createClusterDatabase(ctx.primary);
  ctx.sql = connect(ctx.db.url, { max: 2 });
  ctx.publishers = [];
  ctx.dirs = { primary: makeDataDir() };
  const dir = ctx.dirs.primary!.dir;
  ok(
    await ctx.primary.svc(
      ['init', '--no-install', '--data-dir', dir, '--host', ctx.primary.address, '--database-url', ctx.db.nodeUrl],
      { timeoutMs: 60_000 },
    ),
  );
  mergeJson(join(dir, 'config.json'), NODE_SETTINGS);
  ok(await ctx.primary.svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 120_000 }));
  const accounts = new AccountsService(ctx.sql, systemClock);
  const account = await accounts.create({ name: 'Cluster', creditUsd: '100', trusted: true });
  ctx.key = (await accounts.createApiKey(account.id)).key;
  await joinNode(ctx, ctx.ingest[0] as ClusterNode);
  ctx.clip = await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 });

  // The stable ingest name: HAProxy (TCP) over every node's RTMP port, checking each every second.
  const port = await freePort();
  const bind = `${ctx.topology.rootAddress}:${port}`;
  ctx.haproxy = startTcpBalancer(bind, [ctx.primary, ...ctx.ingest], RTMP);
  ctx.stableRtmp = `rtmp://${ctx.topology.rootAddress}:${port}/live`;
}

t.after(async (ctx) => {
  for (const p of ctx.publishers ?? []) await p.kill();
  await ctx.haproxy?.stop();
  for (const [name, d] of Object.entries(ctx.dirs ?? {}))
    await ctx.topology?.node(name).svc(['down', '--data-dir', d.dir], { timeoutMs: 60_000 });
  await ctx.topology?.stop();
  await ctx.sql?.end({ timeout: 5 });
  await ctx.db?.drop();
  for (const d of Object.values(ctx.dirs ?? {})) d.remove();
});

t(
  'streams spread over the nodes until the cluster is full; the next is 503 no_capacity; a node joining makes room',
  async (ctx) => {
    assert.equal(
      (await nodesList(ctx)).map((n) => [n.name.startsWith('ingest') ? n.name : 'primary', n.state]).sort(),
      [
        ['ingest1', 'up'],
        ['primary', 'up'],
      ],
    );
    // One core less 0.1 each: two 720p ladders (0.45) per node.
    const made: { id: string; rtmp_url: string; node_ready: boolean }[] = [];
    try {
      for (let i = 0; i < 4; i++) {
        const res = await api(ctx, 'POST', '/v1/streams', { max_resolution: 720 });
        assert.is(res.status, 201, JSON.stringify(res.body));
        made.push(res.body);
      }
      const names = await Promise.all(made.map((s) => nodeOf(ctx, s.id)));
      assert.is(names.filter((n) => n === 'ingest1').length, 2, names.join());
      for (const [i, s] of made.entries()) {
        const node = names[i] === 'ingest1' ? (ctx.ingest[0] as ClusterNode) : ctx.primary;
        assert.is(s.rtmp_url, `rtmp://${node.address}:${RTMP}/live`);
        assert.is(s.node_ready, true);
      }
      const full = await api(ctx, 'POST', '/v1/streams', { max_resolution: 720 });
      assert.is(full.status, 503);
      assert.is(full.body.error.code, 'no_capacity');
      assert.is(full.headers.get('retry-after'), '30');

      await joinNode(ctx, ctx.ingest[1] as ClusterNode);
      const room = await waitFor(
        'the new node takes reservations',
        async () => {
          const res = await api(ctx, 'POST', '/v1/streams', { max_resolution: 720 });
          return res.status === 201 && res.body;
        },
        20_000,
      );
      made.push(room);
      assert.is(await nodeOf(ctx, room.id), 'ingest2');
      assert.is(room.rtmp_url, `rtmp://${ctx.ingest[1]!.address}:${RTMP}/live`);
    } finally {
      for (const s of made) await api(ctx, 'DELETE', `/v1/streams/${s.id}`);
    }
  },
);

t(
  'kill -9 of a node with two live streams: the publishers reconnect through the stable name and the broadcasts go on',
  async (ctx) => {
    const dir = ctx.dirs.primary!.dir;
    // Both on ingest1: the others drained while the streams are made.
    for (const other of ['primary', 'ingest2']) {
      const name = other === 'primary' ? (await nodesList(ctx)).find((n) => !n.name.startsWith('ingest'))!.name : other;
      ok(await ctx.primary.svc(['nodes', 'drain', name, '--data-dir', dir]));
    }
    const streams: { id: string; stream_key: string; rtmp_url: string }[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await api(ctx, 'POST', '/v1/streams', { profile: 'passthrough' });
      assert.is(res.status, 201, JSON.stringify(res.body));
      streams.push(res.body);
    }
    for (const n of await nodesList(ctx))
      if (n.status === 'draining') ok(await ctx.primary.svc(['nodes', 'activate', n.name, '--data-dir', dir]));
    const ingest1 = ctx.ingest[0] as ClusterNode;
    for (const s of streams) assert.is(s.rtmp_url, `rtmp://${ingest1.address}:${RTMP}/live`);

    // Straight to the node first, as rtmp_url says.
    for (const s of streams) ctx.publishers.push(publish(`${s.rtmp_url}/${s.stream_key}`, ctx.clip, { loop: true }));
    const before = new Map<string, { sequence: number; playback: string }>();
    for (const s of streams) {
      const playback = await waitFor(
        `${s.id} plays from the origin`,
        async () => {
          const got = await api(ctx, 'GET', `/v1/streams/${s.id}`);
          if (got.body.status !== 'live' || !got.body.playback_url) return false;
          const pl = await originPlaylist(ctx, got.body.playback_url);
          return pl && pl.parsed.segments.length >= 2 && (got.body.playback_url as string);
        },
        60_000,
      );
      before.set(s.id, { sequence: 0, playback });
    }
    // A while on the node first: its sessions are shipped to the origin in 4-s slices.
    await new Promise((r) => setTimeout(r, 12_000));
    // Where the playlists stand when the node dies: after it, they may only go on.
    for (const s of streams) {
      const pl = await originPlaylist(ctx, before.get(s.id)!.playback);
      before.get(s.id)!.sequence = pl!.parsed.mediaSequence + pl!.parsed.segments.length;
    }
    // The machine dies; its publishers lose their connection and come back through the stable name.
    /** When each stream's publish session on the dead node ended. */
    const endedAt = new Map<string, number>();
    killNode(ingest1);
    // Taken once kill(1) has returned: a heartbeat the node wrote while it was being killed is before it.
    const killedAt = Date.now();
    for (const p of ctx.publishers.splice(0)) await p.kill();
    const again = streams.map((s) => retryingPublisher(`${ctx.stableRtmp}/${s.stream_key}`, ctx.clip));
    try {
      for (const s of streams) {
        await waitFor(
          `${s.id} goes on on another node`,
          async () => {
            const node = await nodeOf(ctx, s.id);
            if (!node || node === 'ingest1') return false;
            const pl = await originPlaylist(ctx, before.get(s.id)!.playback);
            return pl && pl.parsed.mediaSequence + pl.parsed.segments.length > before.get(s.id)!.sequence + 1;
          },
          60_000,
        );
      }
      const playableAt = Date.now();
      const admitted = await ctx.sql<{ started_at: Date }[]>`
        select max(started_at) as started_at from publish_sessions where stream_id in ${ctx.sql(streams.map((s) => s.id))}`;
      console.log(
        `  playable on another node ${((playableAt - killedAt) / 1000).toFixed(1)} s after the kill, ` +
          `${((playableAt - (admitted[0]?.started_at.getTime() ?? killedAt)) / 1000).toFixed(1)} s after the later reconnect was admitted`,
      );
      for (const s of streams) {
        const got = await api(ctx, 'GET', `/v1/streams/${s.id}`);
        assert.is(got.body.status, 'live');
        assert.is(got.body.node_ready, true);
        const pl = await originPlaylist(ctx, before.get(s.id)!.playback);
        // The playlist went on, never back, with a discontinuity where the other node took over.
        assert.ok(pl!.parsed.mediaSequence + pl!.parsed.segments.length > before.get(s.id)!.sequence);
        assert.ok(/#EXT-X-DISCONTINUITY\n/.test(pl!.text) || pl!.parsed.discontinuitySequence > 0, pl!.text);
        const events = await ctx.sql<
          { type: string }[]
        >`select type from events where stream_id = ${s.id} order by seq`;
        assert.equal(
          events.map((e) => e.type),
          ['stream.live'],
          'no second stream.live for a reconnect',
        );
        // Two publish sessions, the first closed at the dead node's last heartbeat (before the kill,
        // whether the node-failover job or the reconnect found the node down first), then the second.
        const sessions = await ctx.sql<{ started_at: Date; ended_at: Date | null }[]>`
        select started_at, ended_at from publish_sessions where stream_id = ${s.id} order by started_at`;
        assert.is(sessions.length, 2);
        const firstEnded = sessions[0]!.ended_at?.getTime() ?? Infinity;
        endedAt.set(s.id, firstEnded);
        assert.ok(firstEnded <= killedAt, `the dead node's session ended ${firstEnded - killedAt} ms after the kill`);
        assert.ok(sessions[0]!.ended_at! <= sessions[1]!.started_at);
      }
      const dead = (await nodesList(ctx)).find((n) => n.name === 'ingest1');
      assert.is(dead?.state, 'down');
    } finally {
      for (const p of again) await p.stop();
    }
    for (const s of streams) assert.is((await api(ctx, 'DELETE', `/v1/streams/${s.id}`)).status, 200);
    // One recording each, made of both nodes' sessions: the dead node's part came as shipped pieces.
    for (const s of streams) {
      const recording = await waitFor(
        `${s.id}'s recording`,
        async () => {
          const got = (await api(ctx, 'GET', `/v1/streams/${s.id}`)).body.recording;
          return got && ['ready', 'failed'].includes(got.status) && got;
        },
        90_000,
      );
      assert.is(recording.status, 'ready', JSON.stringify(recording));
      const sessions = await ctx.sql<{ seconds: number }[]>`
        select extract(epoch from ended_at - started_at)::float8 as seconds from publish_sessions
        where stream_id = ${s.id} order by started_at`;
      const [first, second] = sessions.map((r) => r.seconds) as [number, number];
      const heartbeatToKill = (killedAt - endedAt.get(s.id)!) / 1000;
      console.log(
        `  ${s.id}: recording ${recording.duration_seconds} s from sessions of ${first.toFixed(1)} s (dead node, ` +
          `its last heartbeat ${heartbeatToKill.toFixed(1)} s before the kill) and ${second.toFixed(1)} s: ` +
          `${(first + second - recording.duration_seconds).toFixed(2)} s short`,
      );
      // The dead node's part lacks what it recorded after its last slice went (one slice at most);
      // what it recorded from its last heartbeat (where `first` ends) to the kill may be in. A
      // second of margin each way: a pass or an upload delayed on a loaded machine, the
      // publisher's handshake between its admission and its first frame.
      const published = first + second;
      assert.ok(
        recording.duration_seconds > published - ORIGIN_SLICE_SECONDS - 1,
        `at most one slice of the dead node's part missing (${published.toFixed(1)} s published)`,
      );
      assert.ok(recording.duration_seconds < published + heartbeatToKill + 1, 'nothing doubled');
      // Charged once: the ingest seconds are the two sessions', never the gap between them twice over.
      // The dead node may have metered up to the kill, past its last heartbeat (where `first` ends).
      const cost = await waitFor(
        `${s.id} metered after its end`,
        async () => {
          const got = (await api(ctx, 'GET', `/v1/streams/${s.id}`)).body.cost;
          return got && got.ingest_seconds >= Math.floor(published) - 1 && got;
        },
        30_000,
      );
      assert.ok(
        cost.ingest_seconds <= Math.ceil(published + heartbeatToKill) + 1,
        `${cost.ingest_seconds} s charged of ${published.toFixed(1)} s published (+${heartbeatToKill.toFixed(1)} s from the last heartbeat to the kill)`,
      );
    }
  },
);

t(
  'a node drained while live (its publisher a browser over WHIP): its stream goes on, new streams go elsewhere',
  async (ctx) => {
    const dir = ctx.dirs.primary!.dir;
    const node = ctx.ingest[1] as ClusterNode;
    const name = node.name;
    const res = await createdOn(ctx, node);
    // WHIP to the node itself: `whip_url` names it, and its own API answers the offer.
    assert.ok(res.body.whip_url.startsWith(`http://${node.address}:${API}/live/${res.body.id}?`), res.body.whip_url);
    const publisher = await whipPublish(res.body.whip_url);
    try {
      assert.is(publisher.status, 201, publisher.body);
      await waitFor(
        'live',
        async () => (await api(ctx, 'GET', `/v1/streams/${res.body.id}`)).body.status === 'live',
        30_000,
      );
      ok(await ctx.primary.svc(['nodes', 'drain', name, '--data-dir', dir]));
      for (let i = 0; i < 2; i++) {
        const other = await api(ctx, 'POST', '/v1/streams', { profile: 'passthrough' });
        assert.is(other.status, 201);
        assert.is.not(await nodeOf(ctx, other.body.id), name);
        await api(ctx, 'DELETE', `/v1/streams/${other.body.id}`);
      }
      await new Promise((r) => setTimeout(r, 5000));
      const still = await api(ctx, 'GET', `/v1/streams/${res.body.id}`);
      assert.is(still.body.status, 'live');
      assert.is(await nodeOf(ctx, res.body.id), name);
      const listed = (await nodesList(ctx)).find((n) => n.name === name);
      assert.is(listed?.status, 'draining');
      assert.is(listed?.live, 1);
      // Removal waits for the live stream: refused without --force.
      const refused = await ctx.primary.svc(['nodes', 'remove', name, '--json', '--data-dir', dir]);
      assert.is.not(refused.code, 0);
      assert.is(JSON.parse(refused.stdout).error.code, 'node_busy');
      assert.is(await publisher.stop(), 200, "the WHIP session's DELETE reaches the node holding it");
    } finally {
      await publisher.vanish();
    }
    assert.is((await api(ctx, 'DELETE', `/v1/streams/${res.body.id}`)).status, 200);
    ok(await ctx.primary.svc(['nodes', 'activate', name, '--data-dir', dir]));
  },
);

t(
  "a node's link to PostgreSQL cut for 60 s: its live stream goes on, nothing ends, no second publisher gets in",
  async (ctx) => {
    const node = ctx.ingest[1] as ClusterNode;
    const { res, publisher, playback } = await liveOn(ctx, node);
    // The node's only way to the database is its relay: stopped, every packet to PostgreSQL hangs.
    const relays = node.pids().filter((pid) => commandOf(pid).includes('socket-relay'));
    assert.ok(relays.length > 0, 'the node reaches PostgreSQL through its relay');
    const sequence = async () => {
      const pl = await originPlaylist(ctx, playback);
      return pl ? pl.parsed.mediaSequence + pl.parsed.segments.length : 0;
    };
    const before = await sequence();
    for (const pid of relays) process.kill(pid, 'SIGSTOP');
    try {
      await new Promise((r) => setTimeout(r, 30_000));
      const during = await sequence();
      assert.ok(during > before + 3, `the playlist goes on while the node has no database (${before} -> ${during})`);
      // The node counts as down, yet it still publishes: the same key on another node is refused.
      const second = publish(`rtmp://${ctx.primary.address}:${RTMP}/live/${res.body.stream_key}`, ctx.clip, {
        loop: true,
      });
      const ended = await Promise.race([second.exited, new Promise((r) => setTimeout(() => r('running'), 15_000))]);
      if (ended === 'running') await second.kill();
      assert.is.not(ended, 'running', 'a second publisher on another node is refused');
      assert.is(await nodeOf(ctx, res.body.id), node.name);
      await new Promise((r) => setTimeout(r, 15_000));
    } finally {
      for (const pid of relays) process.kill(pid, 'SIGCONT');
    }
    await new Promise((r) => setTimeout(r, 10_000));
    const after = await api(ctx, 'GET', `/v1/streams/${res.body.id}`);
    assert.is(after.body.status, 'live', JSON.stringify(after.body));
    assert.is(await nodeOf(ctx, res.body.id), node.name);
    assert.is(after.body.node_ready, true);
    const events = await ctx.sql<
      { type: string }[]
    >`select type from events where stream_id = ${res.body.id} order by seq`;
    assert.equal(
      events.map((e) => e.type),
      ['stream.live'],
    );
    const sessions = await ctx.sql`select 1 from publish_sessions where stream_id = ${res.body.id}`;
    assert.is(sessions.length, 1, 'one publish session: the second publisher never got in');
    await publisher.kill();
    assert.is((await api(ctx, 'DELETE', `/v1/streams/${res.body.id}`)).status, 200);
  },
);

t(
  'the primary down 20 s (its appliance and nginx killed, then started again): a stream published over SRT to an ingest node goes on, its recording whole',
  async (ctx) => {
    const node = ctx.ingest[1] as ClusterNode;
    const dir = ctx.dirs.primary!.dir;
    // Over SRT: the node's own SRT address and relay (the other tests publish over RTMP).
    const { res, publisher, playback } = await liveOn(ctx, node, 'srt');
    assert.ok(res.body.srt_url.startsWith(`srt://${node.address}:`), res.body.srt_url);
    // Only that node listens for it: no SRT relay of this stream on the others.
    for (const other of [ctx.primary, ...ctx.ingest].filter((n) => n !== node))
      assert.not.ok(
        other.pids().some((pid) => commandOf(pid).includes(res.body.id)),
        `no process of ${other.name} is about ${res.body.id}`,
      );
    const sequence = async () => {
      const pl = await originPlaylist(ctx, playback).catch(() => null);
      return pl ? pl.parsed.mediaSequence + pl.parsed.segments.length : 0;
    };
    await waitFor('segments at the origin', async () => (await sequence()) >= 2, 30_000);
    await new Promise((r) => setTimeout(r, 4000));
    const before = await sequence();

    // The primary's appliance dies with everything it started; the machine's link to the database (the relay) stays.
    const relay = ctx.primary.pids().filter((pid) => commandOf(pid).includes('socket-relay'));
    assert.ok(ctx.primary.pids().length > relay.length + 1, 'svc up and its nginx run on the primary');
    killNode(ctx.primary, relay);
    await new Promise((r) => setTimeout(r, 20_000));
    const sentDuring = publisher.sentSeconds();
    assert.is(
      await Promise.race([publisher.exited.then(() => 'exited'), Promise.resolve('publishing')]),
      'publishing',
      'the publisher on the ingest node is not touched',
    );
    ok(await ctx.primary.svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 120_000 }));

    // The node's uploader resumes the playlists where they were, past the segments the origin missed.
    await waitFor('the playlists go on', async () => (await sequence()) > before + 2, 60_000);
    const pl = await originPlaylist(ctx, playback);
    assert.ok(/#EXT-X-DISCONTINUITY\n/.test(pl!.text) || pl!.parsed.discontinuitySequence > 0, pl!.text);
    const got = await api(ctx, 'GET', `/v1/streams/${res.body.id}`);
    assert.is(got.body.status, 'live', JSON.stringify(got.body));
    assert.is(got.body.node_ready, true);
    assert.is(await nodeOf(ctx, res.body.id), node.name);
    await waitFor('a few seconds more', async () => publisher.sentSeconds() >= sentDuring + 6, 30_000);

    assert.is((await api(ctx, 'DELETE', `/v1/streams/${res.body.id}`)).status, 200);
    const sent = publisher.sentSeconds();
    await publisher.kill();
    // The session's slices waited in the node's spool while the origin was away: nothing is missing.
    const recording = await waitFor(
      'the recording',
      async () => {
        const r = (await api(ctx, 'GET', `/v1/streams/${res.body.id}`)).body.recording;
        return r && ['ready', 'failed'].includes(r.status) && r;
      },
      90_000,
    );
    assert.is(recording.status, 'ready', JSON.stringify(recording));
    console.log(`  primary down 20 s: recording ${recording.duration_seconds} s of ${sent.toFixed(1)} s sent`);
    assert.ok(Math.abs(recording.duration_seconds - sent) <= 2, `${recording.duration_seconds} s of ${sent} s`);
    const events = await ctx.sql<{ type: string }[]>`
    select type from events where stream_id = ${res.body.id} and type like 'stream.%' order by seq`;
    assert.equal(
      events.map((e) => e.type),
      ['stream.live', 'stream.ended'],
      'one broadcast: no second stream.live',
    );
  },
);

t.run();
