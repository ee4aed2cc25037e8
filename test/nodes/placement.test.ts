import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { assertError, createStream } from '../helpers/streams.js';
import { suite } from 'uvu';
import { newId } from '../../src/core/ids.js';
import { admit } from '../../src/domains/engine/live/admission.js';
import { NODE_DOWN_AFTER_MS } from '../../src/domains/ledger/nodes/service.js';
import { PROVISION_GRACE_SECONDS } from '../../src/domains/streams/service.js';

type Ctx = { env: TestApi; key: string };
const t = suite<Ctx>('nodes: reservations spread over the cluster');

/** A node as its heartbeat leaves it: 1 core, 0.1 kept, so two 720p ladders (0.45 each) fit. */
async function addNode(env: TestApi, name: string, opts: { status?: string; seenAgoMs?: number } = {}) {
  const id = newId('nod_');
  const now = env.clock.now();
  await env.db.sql`
    insert into nodes (id, name, status, joined_at, created_at, rtmp_url, whip_url, srt_host, cores, reserved_cores,
      measured_load, ingest_ready, last_seen_at)
    values (${id}, ${name}, ${opts.status ?? 'active'}, ${now}, ${now}, ${`rtmp://${name}.test:1935/live`},
      ${`http://${name}.test:8080/whip`}, ${`${name}.test`}, 1, 0.1, 0.2, true,
      ${new Date(now.getTime() - (opts.seenAgoMs ?? 0))})`;
  await env.api.nodeDirectory.refresh();
  return id;
}

/** Every node heartbeats now (the manual clock moved). */
async function beatAll(env: TestApi) {
  await env.db.sql`update nodes set last_seen_at = ${env.clock.now()} where status <> 'removed'`;
  await env.api.nodeDirectory.refresh();
}

const nodeOf = async (env: TestApi, streamId: string) =>
  (
    await env.db.sql<
      { name: string }[]
    >`select n.name from streams s join nodes n on n.id = s.node_id where s.id = ${streamId}`
  )[0]?.name;

t.before.each(async (ctx) => {
  ctx.env = await createTestApi();
  ctx.key = (await ctx.env.newAccount({ trusted: true, credit: '500' })).key;
});
t.after.each(async (ctx) => {
  await ctx.env.close();
});

t(
  'streams spread over the nodes until the cluster is full; the next is 503 no_capacity; a joining node makes room',
  async ({ env, key }) => {
    for (const name of ['a', 'b', 'c']) await addNode(env, name);
    const made = [];
    for (let i = 0; i < 6; i++) made.push(await createStream(env, key, { max_resolution: 720 }));
    const per = new Map<string, number>();
    for (const s of made) {
      const node = (await nodeOf(env, s.id)) as string;
      per.set(node, (per.get(node) ?? 0) + 1);
      // The URLs name the node the stream is reserved on.
      assert.is(s.rtmp_url, `rtmp://${node}.test:1935/live`);
      assert.ok(s.whip_url.startsWith(`http://${node}.test:8080/whip/${s.id}?`), s.whip_url);
      assert.is(s.node_ready, true);
    }
    assert.equal([...per.entries()].sort(), [
      ['a', 2],
      ['b', 2],
      ['c', 2],
    ]);

    const full = await env.call('POST', '/v1/streams', { key, body: { max_resolution: 720 } });
    assertError(full, 503, 'no_capacity');
    assert.is(full.headers['retry-after'], '30');
    assert.is(full.body.error.details.retry_after_seconds, 30);

    await addNode(env, 'd');
    const placed = await createStream(env, key, { max_resolution: 720 });
    assert.is(await nodeOf(env, placed.id), 'd');
  },
);

t('a down node and a draining node take no reservation; node_ready follows the node', async ({ env, key }) => {
  await addNode(env, 'up');
  await addNode(env, 'gone', { seenAgoMs: NODE_DOWN_AFTER_MS + 1000 });
  await addNode(env, 'drained', { status: 'draining' });
  for (let i = 0; i < 2; i++)
    assert.is(await nodeOf(env, (await createStream(env, key, { max_resolution: 720 })).id), 'up');
  assertError(await env.call('POST', '/v1/streams', { key, body: { max_resolution: 720 } }), 503, 'no_capacity');

  const s = (await env.db.sql<{ id: string }[]>`select id from streams limit 1`)[0] as { id: string };
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.node_ready, true);
  // No heartbeat for longer than the down time: its streams say so.
  env.clock.advance((NODE_DOWN_AFTER_MS + 1000) / 1000);
  await env.api.nodeDirectory.refresh();
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.node_ready, false);
  await beatAll(env);
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.node_ready, true);
});

t(
  'a pending stream whose node died moves to a node with room; with none it ends provision_failed a minute later',
  async ({ env, key }) => {
    await addNode(env, 'a');
    await addNode(env, 'b');
    const first = await createStream(env, key, { max_resolution: 720 });
    const second = await createStream(env, key, { max_resolution: 720 });
    const onA = (await nodeOf(env, first.id)) === 'a' ? first : second;
    assert.is(await nodeOf(env, onA.id), 'a');

    // a stops beating; b goes on: a's reservation moves to b, which has room for it.
    env.clock.advance((NODE_DOWN_AFTER_MS + 1000) / 1000);
    await env.db.sql`update nodes set last_seen_at = ${env.clock.now()} where name = 'b'`;
    assert.equal(await env.api.streams.failover(), { released: 0, moved: 1, failed: 0 });
    assert.is(await nodeOf(env, onA.id), 'b');
    await env.api.nodeDirectory.refresh();
    const moved = (await env.call('GET', `/v1/streams/${onA.id}`, { key })).body;
    assert.is(moved.rtmp_url, 'rtmp://b.test:1935/live');
    assert.is(moved.node_ready, true);

    // Now b dies too, full: nothing can take its two reservations.
    env.clock.advance((NODE_DOWN_AFTER_MS + 1000) / 1000);
    assert.equal(await env.api.streams.failover(), { released: 0, moved: 0, failed: 0 });
    assert.is((await env.call('GET', `/v1/streams/${onA.id}`, { key })).body.status, 'pending');
    env.clock.advance(PROVISION_GRACE_SECONDS);
    assert.equal(await env.api.streams.failover(), { released: 0, moved: 0, failed: 2 });
    const failed = (await env.call('GET', `/v1/streams/${onA.id}`, { key })).body;
    assert.is(failed.status, 'expired');
    assert.is(failed.end_reason, 'provision_failed');
    assert.is(failed.rtmp_url, null);
    const events = await env.db.sql<
      { type: string }[]
    >`select type from events where stream_id = ${onA.id} order by seq`;
    assert.equal(
      events.map((e) => e.type),
      ['stream.expired'],
    );
  },
);

/** A stream live on node a since `seen` (its publish session open), a silent since, b heard from now. */
async function liveOnDeadNode(env: TestApi, key: string) {
  const a = await addNode(env, 'a');
  const b = await addNode(env, 'b');
  const s = await createStream(env, key, { max_resolution: 720 });
  const seen = env.clock.now();
  await env.db.sql`
    update streams set status = 'live', went_live_at = ${seen}, publisher_client_id = '7', node_id = ${a}, recording_status = 'recording'
    where id = ${s.id}`;
  await env.db.sql`insert into publish_sessions (stream_id, started_at) values (${s.id}, ${seen})`;
  env.clock.advance((NODE_DOWN_AFTER_MS + 1000) / 1000);
  await env.db.sql`update nodes set last_seen_at = ${env.clock.now()} where id = ${b}`;
  return { stream: s, seen, b };
}

/** The stream's publish sessions, `[started, ended or null]` in ms, oldest first. */
const publishSessions = async (env: TestApi, streamId: string) =>
  (
    await env.db.sql<{ started_at: Date; ended_at: Date | null }[]>`
    select started_at, ended_at from publish_sessions where stream_id = ${streamId} order by started_at`
  ).map((r) => [r.started_at.getTime(), r.ended_at?.getTime() ?? null]);

t(
  "a live stream whose node died: its publisher counts as gone since the node's last heartbeat; its reservation moves",
  async ({ env, key }) => {
    const { stream: s, seen } = await liveOnDeadNode(env, key);
    assert.equal(await env.api.streams.failover(), { released: 1, moved: 1, failed: 0 });
    const [row] = await env.db.sql<{ publisher_client_id: string | null; publisher_left_at: Date; status: string }[]>`
    select publisher_client_id, publisher_left_at, status from streams where id = ${s.id}`;
    assert.is(row?.status, 'live');
    // Its reservation (and so its srt_url, whip_url and node_ready) moved to the node that is up.
    assert.is(await nodeOf(env, s.id), 'b');
    await env.api.nodeDirectory.refresh();
    const shown = await env.call('GET', `/v1/streams/${s.id}`, { key });
    assert.is(shown.body.node_ready, true);
    assert.is(row?.publisher_client_id, null);
    assert.is(row?.publisher_left_at.getTime(), seen.getTime());
    assert.equal(await publishSessions(env, s.id), [[seen.getTime(), seen.getTime()]]);
    // Once is enough.
    assert.equal(await env.api.streams.failover(), { released: 0, moved: 0, failed: 0 });
  },
);

t(
  "a publisher back on another node before the failover job ran: the dead node's session ends at its last heartbeat, not now",
  async ({ env, key }) => {
    const { stream: s, seen, b } = await liveOnDeadNode(env, key);
    const now = env.clock.now();
    const result = await env.db.sql.begin((tx) =>
      admit(
        tx,
        { name: s.id, key: new URL(`rtmp://x/live/${s.stream_key}`).searchParams.get('key') ?? '', clientId: '9' },
        {
          config: env.config,
          nodeId: b,
          now,
          billing: env.api.billing,
          publisherPresent: () => Promise.resolve(false),
        },
      ),
    );
    assert.ok(result.admitted && result.resumed, JSON.stringify(result));
    // The seconds no node had a publisher are not publishing time (nor in the recording).
    assert.equal(await publishSessions(env, s.id), [
      [seen.getTime(), seen.getTime()],
      [now.getTime(), null],
    ]);
  },
);

t('a box that knows no nodes checks its own capacity, as before nodes', async ({ env, key }) => {
  const s = await createStream(env, key, { max_resolution: 720 });
  const [row] = await env.db.sql<{ node_id: string | null }[]>`select node_id from streams where id = ${s.id}`;
  assert.is(row?.node_id, null);
  assert.is(s.rtmp_url, env.config.publicUrls.rtmp_url);
});

t.run();
