import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import { CdnLogReader } from '../../src/domains/ledger/cdnlog/reader.js';
import { DbLogSink } from '../../src/domains/ledger/cdnlog/sink.js';
import { countedUntil, deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { watchMinutesByDay } from '../../src/domains/audience/viewers/queries.js';
import type { Sql } from '../../src/platform/db/connect.js';
import { apiSuite, type ApiSuiteContext } from '../helpers/api.js';
import { createStream, goLive } from '../helpers/streams.js';

/**
 * The CDN log reader over log files written by the test (real nginx writes them in
 * appliance.test.ts): what it counts, its position across runs, rotations (its own and anyone
 * else's) and a failure between reading and committing.
 */
const t = apiSuite('cdnlog: the reader over a log file', { limits: { new: { pending_streams: 100 } } });

interface Ctx extends ApiSuiteContext {
  dir: string;
  file: string;
  reopened: number;
}

const ctxOf = (c: ApiSuiteContext) => c as Ctx;

t.before.each((c) => {
  const ctx = ctxOf(c);
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-cdnlog-'));
  ctx.file = join(ctx.dir, 'cdn-access.log');
  ctx.reopened = 0;
});

t.after.each(async (c) => {
  const ctx = ctxOf(c);
  rmSync(ctx.dir, { recursive: true, force: true });
  // Each test starts from a fresh position and empty counts.
  await ctx.env.db.sql`truncate cdn_log_position, cdn_viewer_ids, cdn_viewer_minutes, cdn_countries, delivery_minutes`;
});

/** A reader of the test's log; "nginx" reopening makes a new empty file at the path, as nginx does. */
function reader(ctx: Ctx, opts: { maxBytes?: number; batchBytes?: number; sql?: Sql; reopen?: () => boolean } = {}) {
  return new CdnLogReader({
    sink: new DbLogSink(opts.sql ?? ctx.env.db.sql, ctx.env.clock),
    clock: ctx.env.clock,
    logger: createLogger('silent'),
    file: ctx.file,
    rotatedFile: `${ctx.file}.rotated`,
    maxBytes: opts.maxBytes ?? 1 << 30,
    batchBytes: opts.batchBytes,
    reopen:
      opts.reopen ??
      (() => {
        ctx.reopened++;
        if (!existsSync(ctx.file)) writeFileSync(ctx.file, '');
        return true;
      }),
  });
}

const at = (ctx: Ctx, seconds: number) => ctx.env.clock.now().getTime() / 1000 + seconds;
const line = (o: { t: number; status?: number; bytes: number; path: string; country?: string; viewer?: string }) =>
  `{"time":${o.t.toFixed(3)},"status":${o.status ?? 200},"bytes":${o.bytes},"path":"${o.path}","country":"${o.country ?? 'DE'}","viewer":"${o.viewer ?? 'v1'}"}\n`;
const segment = (id: string, n: number) => `/${id}/source_${String(n).padStart(5, '0')}.ts`;

t(
  'only complete lines are read; a line being written waits; counted_until follows the lines, then the read when idle',
  async (c) => {
    const ctx = ctxOf(c);
    const { env, key } = ctx;
    const s = await createStream(env, key);
    const first = line({ t: at(ctx, -30), bytes: 1000, path: segment(s.id, 1) });
    const second = line({ t: at(ctx, -20), bytes: 2000, path: `/${s.id}/master.m3u8` });
    writeFileSync(ctx.file, first + second.slice(0, 20));
    const r = reader(ctx);
    const result = await r.run();
    assert.is(result.lines, 1);
    assert.is(await deliveredBytes(env.db.sql, s.id), 1000);
    assert.is(
      (await countedUntil(env.db.sql))?.getTime(),
      Math.round(at(ctx, -30) * 1000),
      'a line is being written: until the last complete line',
    );

    appendFileSync(ctx.file, second.slice(20));
    env.clock.advance(5);
    await r.run();
    assert.is(await deliveredBytes(env.db.sql, s.id), 3000);
    assert.is(
      (await countedUntil(env.db.sql))?.getTime(),
      env.clock.now().getTime() - 1000,
      'idle: the time of the read, less the clock slack',
    );
    await r.run();
    assert.is(await deliveredBytes(env.db.sql, s.id), 3000, 'read once');
  },
);

t(
  'viewers across runs: one per minute however many runs see them; compacted once the minute is past; series, countries, source cdn after the end; watch minutes per day',
  async (c) => {
    const ctx = ctxOf(c);
    const { env, key, accountId } = ctx;
    const s = await createStream(env, key);
    await goLive(env, accountId, s.id);
    // Minute 0 (12:00): a and b in DE, c in FR; minute 1: a and c; a shows up in several runs.
    const base = at(ctx, 0);
    writeFileSync(
      ctx.file,
      line({ t: base + 1, bytes: 10, path: segment(s.id, 1), viewer: 'a' }) +
        line({ t: base + 2, bytes: 10, path: segment(s.id, 1), viewer: 'b' }),
    );
    env.clock.advance(10);
    const r = reader(ctx);
    await r.run();
    appendFileSync(
      ctx.file,
      line({ t: base + 11, bytes: 10, path: segment(s.id, 2), viewer: 'a' }) +
        line({ t: base + 12, bytes: 10, path: segment(s.id, 2), viewer: 'c', country: 'FR' }),
    );
    env.clock.advance(10);
    await r.run();
    appendFileSync(
      ctx.file,
      line({ t: base + 61, bytes: 10, path: segment(s.id, 3), viewer: 'a' }) +
        line({ t: base + 62, bytes: 10, path: segment(s.id, 3), viewer: 'c', country: 'FR' }),
    );
    env.clock.advance(50);
    await r.run();

    let series = (await env.call('GET', `/v1/streams/${s.id}/viewers`, { key })).body;
    assert.equal(series.cdn, [{ minute: '2026-11-22T12:00:00.000Z', viewers: 3 }], 'minute 1 is not over yet');
    assert.equal(series.countries, [
      { country: 'DE', share: 0.6, watch_minutes: 3 },
      { country: 'FR', share: 0.4, watch_minutes: 2 },
    ]);
    assert.is((await env.db.sql`select count(*)::int as n from cdn_viewer_minutes`)[0]?.n, 0, 'nothing compacted yet');

    env.clock.advance(120);
    await r.run();
    assert.equal(
      await env.db.sql`select minute, viewers from cdn_viewer_minutes order by minute`.then((rows) =>
        rows.map((x) => [x.minute.toISOString(), x.viewers]),
      ),
      [
        ['2026-11-22T12:00:00.000Z', 3],
        ['2026-11-22T12:01:00.000Z', 2],
      ],
    );
    assert.is(
      (await env.db.sql`select count(*)::int as n from cdn_viewer_ids`)[0]?.n,
      0,
      'the ids are gone once compacted',
    );
    series = (await env.call('GET', `/v1/streams/${s.id}/viewers`, { key })).body;
    assert.equal(series.cdn, [
      { minute: '2026-11-22T12:00:00.000Z', viewers: 3 },
      { minute: '2026-11-22T12:01:00.000Z', viewers: 2 },
    ]);
    assert.equal(
      series.countries.map((x: { country: string; share: number }) => [x.country, x.share]),
      [
        ['DE', 0.6],
        ['FR', 0.4],
      ],
    );

    // Live: the player's figures, with the reader's time.
    let viewers = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body.viewers;
    assert.is(viewers.source, null);
    assert.is(viewers.cdn_counted_until, (await countedUntil(env.db.sql))?.toISOString());
    assert.is((await env.call('DELETE', `/v1/streams/${s.id}`, { key })).status, 200);
    env.clock.advance(60);
    await r.run();
    viewers = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body.viewers;
    assert.is(viewers.source, null, 'ended, but the log is not yet read two minutes past the end');
    env.clock.advance(61);
    await r.run();
    viewers = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body.viewers;
    assert.equal(
      { source: viewers.source, peak: viewers.peak, peak_at: viewers.peak_at, watch_minutes: viewers.watch_minutes },
      { source: 'cdn', peak: 3, peak_at: '2026-11-22T12:00:00.000Z', watch_minutes: 5 },
    );

    // A stream without CDN data counts with the player's minutes.
    const other = await createStream(env, key);
    await env.db
      .sql`insert into viewer_minutes values (${other.id}, '2026-11-22T12:00:00Z', 600, 0, 0, 600, true), (${other.id}, '2026-11-23T00:00:00Z', 120, 0, 0, 60, true)`;
    await env.db.sql`insert into viewer_minutes values (${s.id}, '2026-11-22T12:00:00Z', 6000, 0, 0, 6000, true)`;
    assert.equal(
      await watchMinutesByDay(
        env.db.sql,
        accountId,
        new Date('2026-11-21T23:00:00Z'),
        new Date('2026-11-23T10:00:00Z'),
      ),
      [
        { day: '2026-11-21', watch_minutes: 0 },
        { day: '2026-11-22', watch_minutes: 5 + 10 },
        { day: '2026-11-23', watch_minutes: 1 },
      ],
    );
  },
);

t(
  'its own rotation: past the size it renames the log, has nginx reopen, finishes the old file by its identity and deletes it; every byte once',
  async (c) => {
    const ctx = ctxOf(c);
    const s = await createStream(ctx.env, ctx.key);
    const r = reader(ctx, { maxBytes: 1000, batchBytes: 700 });
    let expected = 0;
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 8; i++) {
        const bytes = 1000 * round + i + 1;
        expected += bytes;
        appendFileSync(ctx.file, line({ t: at(ctx, 0), bytes, path: segment(s.id, i) }));
      }
      if (round === 2) {
        // nginx goes on writing into the renamed file until it reopens: the reader renamed it, and
        // "nginx" here appends to the old name before reopening.
        const result = await r.run();
        assert.ok(result.rotations >= 1, 'rotated');
      }
      ctx.env.clock.advance(11);
      await r.run();
    }
    // nginx writes the new file: the last rotation finishes.
    appendFileSync(ctx.file, line({ t: at(ctx, 0), bytes: 5, path: `/${s.id}/master.m3u8` }));
    expected += 5;
    await r.run();
    assert.is(await deliveredBytes(ctx.env.db.sql, s.id), expected);
    assert.ok(ctx.reopened >= 2, `nginx told to reopen (${ctx.reopened})`);
    assert.not.ok(existsSync(`${ctx.file}.rotated`), 'the old file is deleted once read');
  },
);

t('a line logged into the renamed file before nginx reopened is still counted', async (c) => {
  const ctx = ctxOf(c);
  const s = await createStream(ctx.env, ctx.key);
  // An nginx that has not reopened yet: the path stays free and the old file keeps growing.
  const r = reader(ctx, { maxBytes: 200, reopen: () => true });
  writeFileSync(ctx.file, line({ t: at(ctx, 0), bytes: 1, path: segment(s.id, 1) }).repeat(2));
  assert.is((await r.run()).rotations, 1);
  appendFileSync(`${ctx.file}.rotated`, line({ t: at(ctx, 1), bytes: 2, path: segment(s.id, 2) }));
  ctx.env.clock.advance(30);
  await r.run();
  assert.ok(existsSync(`${ctx.file}.rotated`), 'not deleted while nginx has not reopened');
  // nginx reopens and writes the new file.
  writeFileSync(ctx.file, line({ t: at(ctx, 2), bytes: 4, path: segment(s.id, 3) }));
  await r.run();
  assert.not.ok(existsSync(`${ctx.file}.rotated`));
  assert.is(await deliveredBytes(ctx.env.db.sql, s.id), 8);
});

t(
  'someone else rotates (rename and a new file) or truncates: the new file is read from its start, and the log says so',
  async (c) => {
    const ctx = ctxOf(c);
    const s = await createStream(ctx.env, ctx.key);
    const r = reader(ctx);
    writeFileSync(ctx.file, line({ t: at(ctx, 0), bytes: 1, path: segment(s.id, 1) }));
    await r.run();
    renameSync(ctx.file, `${ctx.file}.1`);
    writeFileSync(ctx.file, line({ t: at(ctx, 1), bytes: 10, path: segment(s.id, 2) }));
    await r.run();
    assert.is(await deliveredBytes(ctx.env.db.sql, s.id), 11);
    appendFileSync(ctx.file, line({ t: at(ctx, 2), bytes: 100, path: segment(s.id, 3) }));
    await r.run();
    truncateSync(ctx.file, 0);
    appendFileSync(ctx.file, line({ t: at(ctx, 3), bytes: 1000, path: segment(s.id, 4) }));
    await r.run();
    assert.is(await deliveredBytes(ctx.env.db.sql, s.id), 1111);
    assert.ok(readFileSync(`${ctx.file}.1`, 'utf8').length > 0, 'their file is left alone');
  },
);

t(
  'a failure between reading and committing (a kill, a lost database) counts nothing; the next run counts every line once',
  async (c) => {
    const ctx = ctxOf(c);
    const s = await createStream(ctx.env, ctx.key);
    let expected = 0;
    let text = '';
    for (let i = 0; i < 200; i++) {
      expected += i;
      text += line({ t: at(ctx, i / 10), bytes: i, path: segment(s.id, i), viewer: `v${i % 7}` });
    }
    writeFileSync(ctx.file, text);
    const sql = ctx.env.db.sql;
    // The transaction does all its writes, then dies before its commit.
    let batches = 0;
    const failing = new Proxy(sql, {
      get(target, prop, receiver) {
        if (prop !== 'begin') return Reflect.get(target, prop, receiver) as unknown;
        return (fn: (tx: unknown) => Promise<unknown>) =>
          target.begin(async (tx) => {
            await fn(tx);
            if (++batches === 3) throw new Error('killed before the commit');
          });
      },
    });
    const killed = await reader(ctx, { sql: failing, batchBytes: 2000 })
      .run()
      .then(
        () => null,
        (err: Error) => err.message,
      );
    assert.is(killed, 'killed before the commit');
    const halfway = await deliveredBytes(sql, s.id);
    assert.ok(halfway > 0 && halfway < expected, `two batches committed (${halfway})`);
    await reader(ctx, { batchBytes: 2000 }).run();
    assert.is(await deliveredBytes(sql, s.id), expected);
    const seen = new Set(Array.from({ length: 200 }, (_, i) => `${Math.floor(at(ctx, i / 10) / 60)} v${i % 7}`));
    const ids = await sql`select count(*)::int as n from cdn_viewer_ids where stream_id = ${s.id}`;
    assert.is(ids[0]?.n, seen.size, 'each viewer once per minute');
  },
);

t.run();
