import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { addDelivery, addViewerIds, compactViewers } from '../../src/domains/ledger/cdnlog/queries.js';
import { addMinutes } from '../../src/domains/audience/viewers/queries.js';
import type { MinuteRow } from '../../src/domains/audience/viewers/counter.js';
import { connect, type Sql, type Tx } from '../../src/platform/db/connect.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';

/**
 * `stream_audience` (migration 014) against the aggregate of the tables it is kept from, after
 * every kind of write to each of them, and under two transactions writing one stream at once.
 */
interface Ctx {
  db: TestDatabase;
  other: Sql;
}

const t = suite<Ctx>('viewers: the audience summary kept by PostgreSQL');

const T0 = Date.parse('2026-03-01T10:00:00Z');
const at = (minute: number) => new Date(T0 + minute * 60_000);
const A = 'str_aaaaaaaaaaaaaaaaaaaa';
const B = 'str_bbbbbbbbbbbbbbbbbbbb';

t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  ctx.other = connect(ctx.db.url, { max: 2 });
  const { sql } = ctx.db;
  await sql`insert into accounts (id, name, state, created_at) values ('acc_audience', 'a', 'active', ${at(0)})`;
});
t.after(async (ctx) => {
  await ctx.other.end({ timeout: 5 });
  await ctx.db.drop();
});
t.before.each(async (ctx) => {
  const { sql } = ctx.db;
  await sql`delete from streams`;
  for (const id of [A, B]) {
    await sql`insert into streams (id, account_id, status, profile, record, max_resolution, max_duration_seconds, player, chat, key_hash, created_at, reservation_expires_at)
      values (${id}, 'acc_audience', 'pending', 'abr_basic', false, 720, 3600, '{}', '{}', '\\x00', ${at(0)}, ${at(30)})`;
  }
});

/** What the read aggregated before the summary (issue 16), from the tables themselves. */
async function aggregate(sql: Sql, id: string) {
  const [row] = await sql`
    with m as (
      select minute, sum(viewers)::int as viewers from (
        select minute, viewers from cdn_viewer_minutes where stream_id = ${id}
        union all
        select minute, count(*)::int from cdn_viewer_ids where stream_id = ${id} group by minute
      ) x group by minute
    )
    select
      (select count(*)::int from viewer_minutes where stream_id = ${id}) as player_minutes,
      (select coalesce(sum(watched_seconds), 0)::float8 from viewer_minutes where stream_id = ${id}) as watched_seconds,
      p.minute as peak_minute, p.watching_seconds as peak_watching_seconds,
      (exists (select 1 from m) or exists (select 1 from delivery_minutes where stream_id = ${id})) as cdn_has_data,
      (select coalesce(sum(viewers), 0)::bigint from m) as cdn_watch_minutes,
      c.minute as cdn_peak_minute, c.viewers as cdn_peak
    from (select 1) one
    left join lateral (select minute, watching_seconds from viewer_minutes where stream_id = ${id} order by watching_seconds desc, minute limit 1) p on true
    left join lateral (select minute, viewers from m order by viewers desc, minute limit 1) c on true`;
  return { ...row };
}

const NOTHING = {
  player_minutes: 0,
  watched_seconds: 0,
  peak_minute: null,
  peak_watching_seconds: null,
  cdn_has_data: false,
  cdn_watch_minutes: 0,
  cdn_peak_minute: null,
  cdn_peak: null,
};

/** The summary row (a stream without one has nothing counted). */
async function summary(sql: Sql, id: string) {
  const [row] = await sql`
    select player_minutes, watched_seconds, peak_minute, peak_watching_seconds, cdn_has_data, cdn_watch_minutes, cdn_peak_minute, cdn_peak
    from stream_audience where stream_id = ${id}`;
  return row ? { ...row } : NOTHING;
}

async function assertKept(sql: Sql, step: string) {
  for (const id of [A, B]) assert.equal(await summary(sql, id), await aggregate(sql, id), `${step}: ${id}`);
}

const minute = (stream_id: string, m: number, watching: number, watched = watching): MinuteRow => ({
  stream_id,
  minute: at(m),
  watching_seconds: watching,
  waiting_seconds: 0,
  buffering_seconds: 0,
  watched_seconds: watched,
  exact: true,
});

t('every insert, update and delete of each table keeps the summary equal to the aggregate', async ({ db }) => {
  const { sql } = db;
  await assertKept(sql, 'no rows');

  // viewer_minutes: inserted and added into by flushes (insert, update on conflict), then changed and deleted.
  await sql.begin((tx) => addMinutes(tx, [minute(A, 0, 300), minute(A, 1, 600, 500), minute(B, 0, 60)]));
  assert.equal((await summary(sql, A)).player_minutes, 2);
  await assertKept(sql, 'minutes inserted');
  await sql.begin((tx) => addMinutes(tx, [minute(A, 0, 300), minute(A, 2, 100), minute(B, 0, 30)]));
  // Minutes 0 and 1 of A now tie at 600: the earliest is the peak.
  assert.equal((await summary(sql, A)).peak_minute, at(0));
  await assertKept(sql, 'minutes added into');
  await sql`update viewer_minutes set watching_seconds = 900 where stream_id = ${A} and minute = ${at(2)}`;
  await assertKept(sql, 'a minute updated');
  await sql`update viewer_minutes set stream_id = ${B} where stream_id = ${A} and minute = ${at(1)}`;
  await assertKept(sql, 'a minute moved to another stream');
  await sql`delete from viewer_minutes where stream_id = ${A} and minute = ${at(2)}`;
  await assertKept(sql, 'a minute deleted');

  // cdn_viewer_ids: inserted by the reader, compacted (deleted) into cdn_viewer_minutes, also by hand.
  await addViewerIds(sql, [
    { stream_id: A, minute: at(0), viewer: 'v1', country: 'DE' },
    { stream_id: A, minute: at(0), viewer: 'v2', country: 'FR' },
    { stream_id: A, minute: at(1), viewer: 'v1', country: 'DE' },
    { stream_id: B, minute: at(1), viewer: 'v3', country: 'DE' },
  ]);
  assert.equal((await summary(sql, A)).cdn_watch_minutes, 3);
  await assertKept(sql, 'viewer ids inserted');
  await sql`update cdn_viewer_ids set minute = ${at(5)} where stream_id = ${B}`;
  await assertKept(sql, 'a viewer id updated');
  await compactViewers(sql, at(0));
  assert.equal((await summary(sql, A)).cdn_watch_minutes, 3);
  await assertKept(sql, 'minute 0 compacted');
  await addViewerIds(sql, [{ stream_id: A, minute: at(0), viewer: 'v4', country: 'DE' }]);
  await compactViewers(sql, at(1));
  // Minute 0 has 2 compacted and 1 id compacted later: the sums of both tables per minute.
  assert.equal([(await summary(sql, A)).cdn_peak, (await summary(sql, A)).cdn_peak_minute], [3, at(0)]);
  await assertKept(sql, 'compacted into a compacted minute');
  await sql`delete from cdn_viewer_ids where stream_id = ${B}`;
  await assertKept(sql, 'viewer ids deleted');

  // cdn_viewer_minutes: changed and deleted by hand.
  await sql`update cdn_viewer_minutes set viewers = 7 where stream_id = ${A} and minute = ${at(1)}`;
  await assertKept(sql, 'a compacted minute updated');
  await sql`insert into cdn_viewer_minutes values (${B}, ${at(3)}, 7)`;
  await assertKept(sql, 'a compacted minute inserted');
  await sql`delete from cdn_viewer_minutes where stream_id = ${A}`;
  await assertKept(sql, 'compacted minutes deleted');

  // delivery_minutes: bytes alone make has_data; marked charged (no change), moved, deleted.
  await sql`delete from cdn_viewer_minutes`;
  assert.is((await summary(sql, A)).cdn_has_data, false);
  await addDelivery(sql, [{ stream_id: A, minute: at(0), bytes: 1000 }]);
  await addDelivery(sql, [{ stream_id: A, minute: at(0), bytes: 1000 }]);
  assert.is((await summary(sql, A)).cdn_has_data, true);
  await assertKept(sql, 'bytes inserted and added into');
  await sql`update delivery_minutes set charged_bytes = bytes`;
  await assertKept(sql, 'bytes charged');
  await sql`update delivery_minutes set stream_id = ${B}`;
  assert.equal([(await summary(sql, A)).cdn_has_data, (await summary(sql, B)).cdn_has_data], [false, true]);
  await assertKept(sql, 'bytes moved to another stream');
  await sql`delete from delivery_minutes`;
  await assertKept(sql, 'bytes deleted');

  // Truncates, and a stream deleted with its rows.
  await sql`truncate viewer_minutes`;
  await assertKept(sql, 'player minutes truncated');
  await sql.begin((tx) => addMinutes(tx, [minute(A, 0, 60), minute(B, 0, 60)]));
  await sql`delete from streams where id = ${A}`;
  assert.equal(await summary(sql, A), NOTHING);
  await assertKept(sql, 'a stream deleted');
});

/** Waits (a few seconds at most) until a backend of `sql`'s database waits for a lock. */
async function someoneWaits(sql: Sql): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    const [row] =
      await sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    if (row?.n) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return false;
}

/**
 * `first` writes and holds its transaction open; `second` writes the same stream meanwhile (its
 * recompute waits for the lock); `first` commits, then `second`. Both committed: the summary has both.
 */
async function concurrently(ctx: Ctx, first: (tx: Tx) => Promise<unknown>, second: (tx: Tx) => Promise<unknown>) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let written!: () => void;
  const firstWritten = new Promise<void>((resolve) => (written = resolve));
  const one = ctx.db.sql.begin(async (tx) => {
    await first(tx);
    written();
    await released;
  });
  await firstWritten;
  const two = ctx.other.begin((tx) => second(tx));
  const waited = await someoneWaits(ctx.db.sql);
  release();
  await Promise.all([one, two]);
  assert.ok(waited, 'the second transaction waits for the first');
}

t('two transactions writing minutes of one stream at once: both counted', async (ctx) => {
  const { sql } = ctx.db;
  // The triggers alone (statements that do not lock first).
  await concurrently(
    ctx,
    (tx) => tx`insert into viewer_minutes values (${A}, ${at(0)}, 60, 0, 0, 60, true)`,
    (tx) => tx`insert into viewer_minutes values (${A}, ${at(1)}, 120, 0, 0, 120, true)`,
  );
  assert.equal([(await summary(sql, A)).player_minutes, (await summary(sql, A)).watched_seconds], [2, 180]);
  await assertKept(sql, 'two inserts at once');

  // Two nodes' flushes, into the same minute and new ones.
  await concurrently(
    ctx,
    (tx) => addMinutes(tx, [minute(A, 1, 60), minute(A, 2, 60), minute(B, 0, 10)]),
    (tx) => addMinutes(tx, [minute(A, 1, 60), minute(A, 3, 30), minute(B, 0, 10)]),
  );
  assert.equal([(await summary(sql, A)).player_minutes, (await summary(sql, A)).watched_seconds], [4, 390]);
  await assertKept(sql, 'two flushes at once');

  // The CDN reader's viewers and a node's minutes.
  await concurrently(
    ctx,
    (tx) => addViewerIds(tx, [{ stream_id: A, minute: at(0), viewer: 'v1', country: 'DE' }]),
    (tx) => tx`insert into cdn_viewer_minutes values (${A}, ${at(0)}, 4)`,
  );
  assert.equal((await summary(sql, A)).cdn_watch_minutes, 5);
  await assertKept(sql, 'viewer ids and compacted minutes at once');
});

t.run();
