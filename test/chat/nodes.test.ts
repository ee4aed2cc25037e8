import * as assert from 'uvu/assert';
import { suite } from 'uvu';
import { createApi, type Api } from '../../src/composition/appliance.js';
import { createLogger } from '../../src/core/logger.js';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { clientId, FeedReader } from '../helpers/chat.js';
import { createStream } from '../helpers/streams.js';

/**
 * Two appliance nodes (two API processes' worth: each its own pool, LISTEN connection and hub) on
 * one PostgreSQL share one chat: posts made on either reach readers on both, once each, in one
 * order, also when a node's LISTEN connection is cut.
 */
const t = suite<{
  env: TestApi;
  apiKey: string;
  second: { api: Api; sql: Sql; base: string; stop: () => Promise<void> };
  firstBase: string;
  stopFirst: () => Promise<void>;
}>('chat: two nodes on one database');

const readers: FeedReader[] = [];

t.before(async (ctx) => {
  ctx.env = await createTestApi({
    limits: { new: { pending_streams: 100, creations_per_hour: 1000 } },
    chat: { fanout_ms: 20, posts_per_window: 1000 },
  });
  ctx.apiKey = (await ctx.env.newAccount()).key;
  ctx.stopFirst = ctx.env.api.chat.start();
  ctx.firstBase = await ctx.env.api.app.listen({ host: '127.0.0.1', port: 0 });
  const sql = connect(ctx.env.db.url, { max: 10 });
  const api = await createApi({
    sql,
    config: ctx.env.config,
    clock: ctx.env.clock,
    logger: createLogger('silent'),
    secrets: { postgres_password: 'unused', signing_key: 'test-signing', data_key: 'test-data' },
  });
  const stop = api.chat.start();
  const base = await api.app.listen({ host: '127.0.0.1', port: 0 });
  ctx.second = { api, sql, base, stop };
});
t.after.each(() => {
  for (const r of readers.splice(0)) r.close();
});
t.after(async (ctx) => {
  await ctx.second.stop();
  await ctx.second.api.app.close();
  await ctx.second.sql.end({ timeout: 5 });
  await ctx.stopFirst();
  await ctx.env.close();
});

const open = async (base: string, id: string) => {
  const r = await FeedReader.open(`${base}/v1/embed/${id}/chat/feed`);
  readers.push(r);
  await r.until((x) => x.named('settings').length === 1, 'the start of the feed');
  return r;
};
/**
 * One post, sent again after a `503 chat_busy` as players do: both nodes share this test process's
 * event loop, and a pause left by an earlier test file makes a node shed posts for a second. The
 * shedding is tested in busy.test.ts; here only delivery is.
 */
const postTo = async (base: string, id: string, name: string, text: string) => {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(`${base}/v1/embed/${id}/chat/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text, nickname: name, client_id: clientId(name) }),
    });
    const body = await res.text();
    if (res.status === 503 && body.includes('"chat_busy"') && attempt < 5) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? 1) * 1000));
      continue;
    }
    assert.is(res.status, 201, body);
    return;
  }
};

t(
  'posts made on both nodes at once reach readers on both, once each, in the same order',
  async ({ env, apiKey, firstBase, second }) => {
    const { id } = await createStream(env, apiKey);
    const onFirst = await open(firstBase, id);
    const onSecond = await open(second.base, id);
    const posts: Promise<void>[] = [];
    for (let i = 0; i < 40; i++) posts.push(postTo(i % 2 ? second.base : firstBase, id, `v${i % 7}`, `m${i}`));
    await Promise.all(posts);
    for (const r of [onFirst, onSecond]) await r.until((x) => x.named('message').length >= 40, '40 messages');
    await new Promise((r) => setTimeout(r, 200));
    const a = onFirst.messages().map((m) => m.text);
    const b = onSecond.messages().map((m) => m.text);
    assert.is(a.length, 40);
    assert.equal(new Set(a).size, 40);
    assert.equal(a, b);
    assert.equal(
      onFirst.named('message').map((e) => e.id),
      onSecond.named('message').map((e) => e.id),
    );
  },
);

t(
  'a node whose LISTEN connection is cut still delivers every post, once, and listens again',
  async ({ env, apiKey, firstBase, second }) => {
    const { id } = await createStream(env, apiKey);
    const onSecond = await open(second.base, id);
    // Every LISTEN connection of the database is terminated (both nodes': they cannot be told apart).
    const cut = await env.db
      .sql`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query ilike 'listen%'`;
    assert.ok(cut.length >= 1, 'a LISTEN connection was found');
    for (let i = 0; i < 5; i++) await postTo(firstBase, id, 'poster', `during ${i}`);
    await onSecond.until((x) => x.named('message').length >= 5, 'the posts made while the connection was away', 10_000);
    // Listening again (our own ping unheard for six seconds), a post arrives at once.
    await new Promise((r) => setTimeout(r, 7000));
    const listening = await env.db
      .sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query ilike 'listen%'`;
    assert.ok((listening[0]?.n as number) >= 2, `both nodes listen again (${listening[0]?.n})`);
    await postTo(firstBase, id, 'poster', 'after');
    await onSecond.until((x) => x.named('message').length >= 6, 'the post after', 1500);
    assert.equal(
      onSecond.messages().map((m) => m.text),
      ['during 0', 'during 1', 'during 2', 'during 3', 'during 4', 'after'],
    );
  },
);

t.run();
