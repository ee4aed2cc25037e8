/**
 * The ingest series the dashboard charts (sampled by the live tick, kept while live, purged after
 * 7 days) and the overview's reach: every account, not one API key's.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import { ApiError } from '../../src/core/errors.js';
import { ACCESS_REFRESH_MS, DashboardAccess, operatorToken } from '../../src/domains/surfaces/dashboard/access.js';
import { DashboardService } from '../../src/domains/surfaces/dashboard/service.js';
import type { Sql } from '../../src/platform/db/connect.js';
import { INGEST_SAMPLE_DAYS, INGEST_SAMPLE_SECONDS, sampleDue } from '../../src/domains/engine/live/history.js';
import { saveIngest } from '../../src/domains/engine/live/queries.js';
import type { IngestMeasurement } from '../../src/domains/streams/model.js';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { createStream, goLive } from '../helpers/streams.js';
import { insertOutput } from '../helpers/rtmp-receiver.js';

const t = suite<{ env: TestApi }>('dashboard: ingest series and overview');

t.before(async (ctx) => {
  ctx.env = await createTestApi();
});
t.after(async (ctx) => {
  await ctx.env?.close();
});

const measurement = (kbps: number, at: Date): IngestMeasurement => ({
  width: 1280,
  height: 720,
  kbps,
  observed_at: at.toISOString(),
  limit_warning: null,
  keyframe_interval_seconds: 2,
  keyframe_warning: false,
});

t('a sample every INGEST_SAMPLE_SECONDS at most', () => {
  const at = new Date('2026-11-22T12:00:00.000Z');
  assert.ok(sampleDue(null, at));
  assert.not.ok(sampleDue(at, new Date(at.getTime() + (INGEST_SAMPLE_SECONDS - 1) * 1000)));
  assert.ok(sampleDue(at, new Date(at.getTime() + INGEST_SAMPLE_SECONDS * 1000)));
});

t('samples are kept while the stream is live, read oldest first, purged after the retention', async ({ env }) => {
  const { id: accountId, key } = await env.newAccount();
  const s = await createStream(env, key);
  await goLive(env, accountId, s.id);
  const { sql } = env.db;
  const first = env.clock.now();
  await saveIngest(sql, s.id, measurement(3000, first), null, first);
  env.clock.advance(3);
  // A tick between samples updates the stream only.
  await saveIngest(sql, s.id, measurement(3100, env.clock.now()), null, null);
  env.clock.advance(INGEST_SAMPLE_SECONDS);
  const second = env.clock.now();
  await saveIngest(sql, s.id, measurement(3200, second), null, second);
  const series = await env.api.ingestHistory.series(s.id);
  assert.equal(
    series.map((p) => [p.at.toISOString(), p.kbps]),
    [
      [first.toISOString(), 3000],
      [second.toISOString(), 3200],
    ],
  );
  assert.is(series[0]?.keyframe_interval_seconds, 2);

  // Ended: nothing more is stored.
  assert.is((await env.call('DELETE', `/v1/streams/${s.id}`, { key })).status, 200);
  env.clock.advance(INGEST_SAMPLE_SECONDS);
  await saveIngest(sql, s.id, measurement(9999, env.clock.now()), null, env.clock.now());
  assert.is((await env.api.ingestHistory.series(s.id)).length, 2);

  env.clock.advance(INGEST_SAMPLE_DAYS * 86_400 - 2 * INGEST_SAMPLE_SECONDS + 1);
  assert.is(await env.api.ingestHistory.purge(), 1);
  assert.is((await env.api.ingestHistory.series(s.id)).length, 1);
  assert.is(await env.api.ingestHistory.purge(1), 0);
});

t("the overview shows every account and its streams; the series reads any account's stream", async ({ env }) => {
  const a = await env.newAccount({ credit: '12.34' });
  const b = await env.newAccount({ credit: '5' });
  const sa = await createStream(env, a.key, { name: 'From A' });
  const sb = await createStream(env, b.key, { name: 'From B' });
  const authorization = `Bearer ${operatorToken('test-signing', 1)}`;
  const res = await env.api.app.inject({ method: 'GET', url: '/dashboard/api/overview', headers: { authorization } });
  assert.is(res.statusCode, 200, res.body);
  assert.is(res.headers['cache-control'], 'no-store');
  const o = res.json();
  assert.equal(o.unavailable, []);
  assert.equal(o.health.parts, { database: true });
  for (const s of [sa, sb])
    assert.ok(
      o.streams.some((x: { id: string }) => x.id === s.id),
      s.id,
    );
  const balance = (id: string) => o.accounts.find((x: { id: string }) => x.id === id)?.balance_usd;
  assert.is(balance(a.id), '12.34');
  assert.is(balance(b.id), '5.00');
  const series = await env.api.app.inject({
    method: 'GET',
    url: `/dashboard/api/streams/${sb.id}/series`,
    headers: { authorization },
  });
  assert.is(series.statusCode, 200, series.body);
  assert.equal(series.json(), {
    object: 'dashboard_stream_series',
    stream_id: sb.id,
    ingest: [],
    player: [],
    cdn: [],
    viewers_now: null,
  });
  // An API key is not the operator token.
  assert.is(
    (
      await env.api.app.inject({
        method: 'GET',
        url: '/dashboard/api/overview',
        headers: { authorization: `Bearer ${a.key}` },
      })
    ).statusCode,
    401,
  );
});

t("a live stream's restreaming outputs: status, last error, bytes sent; never a key", async ({ env }) => {
  const a = await env.newAccount();
  const live = await createStream(env, a.key, { name: 'Restreamed' });
  const pending = await createStream(env, a.key, { name: 'Not yet live' });
  await goLive(env, a.id, live.id);
  const { sql } = env.db;
  const keys = ['yt-key-abcdefghijkl-QXZW', 'tw-key-abcdefghijkl-WVYK', 'pending-key-abcdefgh-PKJR'];
  const youtube = await insertOutput(sql, {
    streamId: live.id,
    accountId: a.id,
    url: 'rtmp://a.rtmp.youtube.com/live2',
    key: keys[0]!,
    name: 'YouTube',
  });
  const twitch = await insertOutput(sql, {
    streamId: live.id,
    accountId: a.id,
    url: 'rtmps://live.twitch.tv:443/app',
    key: keys[1]!,
  });
  await insertOutput(sql, { streamId: pending.id, accountId: a.id, url: 'srt://srt.example.com:9000', key: keys[2]! });
  // What a pushing node writes: one active since a moment, one refused by its receiver.
  const since = env.clock.now();
  await sql`update stream_outputs set status = 'active', connected_at = ${since}, bytes_sent = 123456789012
    where id = ${youtube}`;
  await sql`update stream_outputs set status = 'errored', last_error = 'the receiver refused the stream key', bytes_sent = 0
    where id = ${twitch}`;

  const authorization = `Bearer ${operatorToken('test-signing', 1)}`;
  const res = await env.api.app.inject({ method: 'GET', url: '/dashboard/api/overview', headers: { authorization } });
  assert.is(res.statusCode, 200, res.body);
  const streams = res.json().streams as { id: string; outputs: unknown[] }[];
  assert.equal(streams.find((s) => s.id === live.id)?.outputs, [
    {
      id: youtube,
      name: 'YouTube',
      host: 'a.rtmp.youtube.com',
      url: 'rtmp://a.rtmp.youtube.com/live2',
      enabled: true,
      status: 'active',
      last_error: null,
      connected_at: since.toISOString(),
      bytes_sent: 123456789012,
    },
    {
      id: twitch,
      name: null,
      host: 'live.twitch.tv',
      url: 'rtmps://live.twitch.tv:443/app',
      enabled: true,
      status: 'errored',
      last_error: 'the receiver refused the stream key',
      connected_at: null,
      bytes_sent: 0,
    },
  ]);
  // Nothing is pushed before the stream is live: its outputs are not listed.
  assert.equal(streams.find((s) => s.id === pending.id)?.outputs, []);
  // No key, whole or masked, anywhere in the answer.
  for (const key of keys) {
    assert.not.ok(res.body.includes(key), key);
    assert.not.ok(res.body.includes(key.slice(-4)), `${key}'s last four`);
  }
  assert.not.match(res.body, /stream_key|••••/);
});

t(
  'while PostgreSQL is away: the token read before still holds, health says the database is down, sections are null',
  async ({ env }) => {
    let down = false;
    // The test database, or a connection that fails as one to a stopped server does.
    const sql = new Proxy(env.db.sql, {
      apply: (target, self, args) =>
        down
          ? Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
          : Reflect.apply(target, self, args),
    }) as Sql;
    const access = new DashboardAccess({ sql, clock: env.clock, signingKey: 'test-signing' });
    const dashboard = new DashboardService({
      sql,
      clock: env.clock,
      logger: createLogger('silent'),
      cdn: env.api.cdn,
      playerUrl: 'http://media.test',
      viewers: env.api.viewers,
      history: env.api.ingestHistory,
      billing: env.api.billing,
    });
    const good = `Bearer ${operatorToken('test-signing', 1)}`;
    await access.check(good);
    down = true;
    env.clock.advance((2 * ACCESS_REFRESH_MS) / 1000);
    await access.check(good);
    try {
      await access.check(`Bearer ${operatorToken('test-signing', 2)}`);
      assert.unreachable('a wrong token passed');
    } catch (err) {
      assert.instance(err, ApiError);
      assert.is((err as ApiError).code, 'unauthorized');
    }
    const o = await dashboard.overview({ database: false, ingest: true });
    assert.equal(o.health, {
      healthy: false,
      parts: { database: false, ingest: true },
      jobs: null,
      certificate: null,
    });
    assert.equal([o.streams, o.recordings, o.accounts, o.webhooks, o.edges], [null, null, null, null, null]);
    assert.equal([...o.unavailable].sort(), ['accounts', 'edges', 'jobs', 'recordings', 'streams', 'webhooks']);
    // Without a generation ever read, there is nothing to check against: the database's error (a 503).
    const fresh = new DashboardAccess({ sql, clock: env.clock, signingKey: 'test-signing' });
    try {
      await fresh.check(good);
      assert.unreachable('checked without a database');
    } catch (err) {
      assert.is((err as { code?: string }).code, 'ECONNREFUSED');
    }
    down = false;
  },
);

t.run();
