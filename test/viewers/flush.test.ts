import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import type { BeatState } from '../../src/domains/audience/viewers/counter.js';
import { ViewerCounter } from '../../src/domains/audience/viewers/counter.js';
import { ViewersService } from '../../src/domains/audience/viewers/service.js';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { createStream } from '../helpers/streams.js';

const t = apiSuite('viewers: minutes flushed to PostgreSQL, added up across nodes');

/** One API node's counting: its own counter, the shared database and clock. */
function node(env: TestApi, sampleSeconds = 5) {
  const counter = new ViewerCounter({ clock: env.clock, intervalSeconds: 15, sampleSeconds });
  const service = new ViewersService({ sql: env.db.sql, logger: createLogger('silent'), counter });
  return { counter, service };
}

type Node = ReturnType<typeof node>;
/** Players of one node: `[node, id prefix, from, to (exclusive), state]`. */
type Group = [Node, string, number, number, BeatState];

/**
 * `seconds` of the players in `groups` beating at :00, :15, :30 and :45 of each minute, every
 * node sampling every 5 s (the clock stays on 5-second steps).
 */
function play(env: TestApi, streamId: string, nodes: Node[], groups: Group[], seconds = 60): void {
  for (let elapsed = 0; elapsed < seconds; elapsed += 5) {
    if (env.clock.now().getUTCSeconds() % 15 === 0) {
      for (const [n, prefix, from, to, st] of groups) {
        for (let i = from; i < to; i++) n.counter.beat(streamId, { s: `${prefix}-${i}`, st, u: 0.5 });
      }
    }
    for (const n of nodes) n.counter.sample();
    env.clock.advance(5);
  }
}

/** Moves the clock to the start of the next minute, unless it is on one. */
const toMinute = (env: TestApi) => env.clock.advance((60 - env.clock.now().getUTCSeconds()) % 60);

/** Start of the minute the clock is in, `offset` minutes on. */
const minuteAt = (env: TestApi, offset = 0) =>
  new Date((Math.floor(env.clock.now().getTime() / 60_000) + offset) * 60_000).toISOString();

t('two nodes add into the same minutes; peak, peak_at, watch_minutes and the series', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  const stream = await createStream(env, key);
  toMinute(env);
  const [one, two] = [node(env), node(env)];
  const nodes = [one, two];
  const minutes = [0, 1, 2].map((m) => minuteAt(env, m));

  // Minute 0: 35 + 15 watching, 5 buffering; 30 + 10 + 5 watched.
  const minute0: Group[] = [
    [one, 'a', 0, 30, 'p'],
    [one, 'a', 30, 35, 'z'],
    [two, 'b', 0, 10, 'p'],
    [two, 'b', 10, 15, 'b'],
  ];
  play(env, stream.id, nodes, minute0);
  // Minute 1: 100 + 30 watching (the peak), 100 + 20 watched. Node one writes minute 0 on the
  // way; node two keeps its minutes in memory until the end.
  const minute1: Group[] = [
    [one, 'a', 0, 100, 'p'],
    [two, 'b', 0, 20, 'p'],
    [two, 'b', 20, 30, 'z'],
  ];
  play(env, stream.id, nodes, minute1, 30);
  assert.is(await one.service.flush(), 1);
  play(env, stream.id, nodes, minute1, 30);
  // Minute 2: 10 keep playing on node one, 2 wait on node two; the others are silent after
  // :45 and count in the samples at :00 and :05 only (2 of 12): 90 playing on node one, 18
  // playing and 10 paused on node two. Node one writes half a minute early (its shutdown, say)
  // and the rest later: the halves add up.
  const minute2: Group[] = [
    [one, 'a', 0, 10, 'p'],
    [two, 'b', 0, 2, 'w'],
  ];
  play(env, stream.id, nodes, minute2, 30);
  assert.is(await one.service.flush({ partial: true }), 2);
  play(env, stream.id, nodes, minute2, 30);
  assert.is(await one.service.flush(), 1);
  assert.is(await two.service.flush(), 3);
  assert.is(await two.service.flush(), 0, 'nothing twice');

  const series = await one.service.series(stream.id);
  assert.equal(series, [
    { minute: minutes[0], watching: 50, waiting: 0, buffering_pct: 10, exact: true },
    { minute: minutes[1], watching: 130, waiting: 0, buffering_pct: 0, exact: true },
    // (10·60 + 90·10 + 28·10) / 60 = 29.7
    { minute: minutes[2], watching: 30, waiting: 2, buffering_pct: 0, exact: true },
  ]);
  assert.equal(await two.service.series(stream.id), series, 'every node reads the same minutes');

  // Watched: 45 + 120 + (10·60 + 90·10 + 18·10) / 60 = 28.
  const viewers = await one.service.viewers(stream.id);
  assert.equal(viewers, {
    now: { watching: 10, waiting: 0, buffering_pct: 0, measured_at: env.clock.now().toISOString(), exact: true },
    peak: 130,
    peak_at: minutes[1],
    watch_minutes: 193,
    source: 'player',
    cdn_counted_until: null,
  });
  assert.is(one.service.viewersNow(stream.id), 10);
  assert.equal((await two.service.viewers(stream.id)).now?.waiting, 2, "each node's now is its own players");
  assert.is(await two.service.watchMinutes(stream.id), 193);
});

t('before any minute is written: nulls; this node’s open minute already counts in watch_minutes', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  const stream = await createStream(env, key);
  toMinute(env);
  const one = node(env);
  const empty = { now: null, peak: null, peak_at: null, watch_minutes: null, source: null, cdn_counted_until: null };
  assert.equal(await one.service.viewers(stream.id), empty);
  assert.equal(await one.service.series(stream.id), []);
  assert.is(await one.service.watchMinutes(stream.id), 0);
  assert.is(one.service.viewersNow(stream.id), null);

  play(env, stream.id, [one], [[one, 'c', 0, 6, 'p']], 30);
  const viewers = await one.service.viewers(stream.id);
  assert.equal([viewers.now?.watching, viewers.peak, viewers.watch_minutes, viewers.source], [6, null, 3, 'player']);
  assert.is(await one.service.watchMinutes(stream.id), 3);
});

t('a refused write keeps the minutes for the next flush; minutes of streams gone are skipped', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  const [kept, gone] = [await createStream(env, key), await createStream(env, key)];
  toMinute(env);
  const one = node(env);
  one.counter.beat(gone.id, { s: 'gone-aaaa', st: 'p', u: 0.1 });
  play(env, kept.id, [one], [[one, 'd', 0, 4, 'p']]);
  await env.db.sql`alter table viewer_minutes add constraint refuse_for_test check (false) not valid`;
  try {
    await one.service.flush();
    assert.unreachable('the insert fails');
  } catch (err) {
    assert.instance(err, Error);
    assert.match((err as Error).message, /refuse_for_test/);
  } finally {
    await env.db.sql`alter table viewer_minutes drop constraint refuse_for_test`;
  }
  assert.is(await one.service.watchMinutes(kept.id), 4, 'unwritten minutes still count');
  await env.db.sql`delete from streams where id = ${gone.id}`;
  assert.is(await one.service.flush(), 1, 'written once, the deleted stream skipped');
  assert.is(await one.service.watchMinutes(kept.id), 4);
  assert.is((await one.service.series(kept.id)).length, 1);
  await env.db.sql`delete from streams where id = ${kept.id}`;
  const [left] = await env.db.sql<
    { n: number }[]
  >`select count(*)::int as n from viewer_minutes where stream_id = ${kept.id}`;
  assert.is(left?.n, 0, 'deleted with the stream');
});

t('start samples on a timer; its stop writes the open minute', async ({ env }) => {
  const { key } = await env.newAccount({ trusted: true });
  const stream = await createStream(env, key);
  const one = node(env, 1);
  for (let i = 0; i < 3; i++) one.counter.beat(stream.id, { s: `timer-${i}`, st: 'p', u: 0.5 });
  const stop = one.service.start();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await stop();
  const [row] = await env.db.sql<
    { watching_seconds: number }[]
  >`select watching_seconds from viewer_minutes where stream_id = ${stream.id}`;
  // The manual clock stands still: the first sample holds for one period, none after it.
  assert.is(row?.watching_seconds, 3);
});

t.run();
